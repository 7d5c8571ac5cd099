import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { lazy, Suspense, type ReactNode } from "react";
import type { RoomResults as Results } from "../../../shared/admin/rooms.ts";
import { formatTime } from "../../../shared/time.ts";
import { request } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudUrl } from "../crud/api.ts";
import type { CrudRow } from "../crud/types.ts";
import { PageLeaveSummary } from "./PageLeaves.tsx";
import { DataTable, FIGURES } from "../../ui/DataTable.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";

const RoomResultsChart = lazy(() => import("./RoomResultsChart.tsx"));

/** mm:ss or h:mm:ss. */
function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(h ? 2 : 1, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

function ToMark({ count }: { count: number }) {
  const { t } = useLingui();
  return <span className="ms-1 text-amber-700 dark:text-amber-300">{t`(${count} to mark)`}</span>;
}

/** One titled part of the results, a region named by its heading. */
function Part({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

/**
 * A room's results (row action "Results", `GET /admin/exam/room/results`): the summary, the
 * score distribution (chart and numbers), each attempt with member, score, time used, status
 * and how often and how long the member left the exam page, item analysis, and the .xlsx export (`GET export`).
 */
export function RoomResults({ row }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const results = useQuery({
    queryKey: ["crud", "exam/room", "results", row.id],
    queryFn: async ({ signal }) => (await request<Results>({ url: crudUrl("exam/room", "results"), method: "get", params: { id: row.id }, signal })).data,
  });
  const download = useMutation({
    mutationFn: async () => {
      const res = (await request({ url: crudUrl("exam/room", "export"), method: "get", params: { id: row.id, tz: Intl.DateTimeFormat().resolvedOptions().timeZone }, responseType: "blob" }, { reductDataFormat: false })) as unknown as { data: Blob };
      const url = URL.createObjectURL(res.data);
      const a = document.createElement("a");
      a.href = url;
      a.download = `room-${row.id}-results.xlsx`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
  if (results.isPending) return <PageSpinner />;
  if (!results.data) return <p role="alert">{t`The results could not be loaded`}</p>;
  const r = results.data;
  const statusText = (s: string) => (s === "open" ? t`In progress` : s === "submitted" ? t`Submitted` : t`Time up`);
  const dateTime = (s: number) => formatTime(s, "YYYY-MM-DD HH:mm");
  const labels = r.distribution.map((d) => `${d.from}–${d.to}`);
  const s = r.summary;
  return (
    <div className="space-y-5 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium">
          {r.room.title} · {r.room.paperTitle}
        </p>
        <Button onClick={() => download.mutate()} disabled={download.isPending}>
          {download.isPending ? <Spinner className="size-4" /> : <Download aria-hidden className="size-4" />}
          <Trans>Export .xlsx</Trans>
        </Button>
      </div>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="results-summary">
        {[
          [t`Members who sat`, s.members],
          [t`Attempts`, s.attempts],
          [t`Passed`, `${s.passed} / ${s.finished}`],
          [t`Average`, s.average ?? "–"],
        ].map(([k, v]) => (
          <div key={String(k)} className="rounded-md bg-slate-50 p-2 dark:bg-slate-800">
            <dt className="text-xs text-slate-600 dark:text-slate-300">{k}</dt>
            <dd className="text-lg font-semibold tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
      <Part id="dist-title" title={<Trans>Score distribution</Trans>}>
        <Suspense fallback={<div className="h-48 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />}>
          <RoomResultsChart labels={labels} counts={r.distribution.map((d) => d.count)} />
        </Suspense>
        <p className="sr-only">{r.distribution.map((d, i) => `${labels[i]}: ${d.count}`).join(", ")}</p>
      </Part>
      <Part id="attempts-title" title={<Trans>Each attempt</Trans>}>
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-labelledby="attempts-title">
          <DataTable
            frame={false}
            className="min-w-[44rem]"
            data-testid="results-attempts"
            data={r.attempts}
            rowKey={(a) => a.id}
            empty={{ content: t`No one has sat this room yet`, className: "px-3 py-2 align-middle text-slate-600 dark:text-slate-300" }}
            columns={[
              { id: "member", header: t`Member`, cell: (a) => a.nickname || a.username },
              { id: "score", header: t`Score`, ...FIGURES, cell: (a) => a.score ?? "–" },
              {
                id: "result",
                header: t`Result`,
                cell: (a) => (
                  <>
                    {a.passed === null ? "–" : a.passed ? t`Passed` : t`Failed`}
                    {a.pendingMarks > 0 && <ToMark count={a.pendingMarks} />}
                  </>
                ),
              },
              { id: "time", header: t`Time used`, ...FIGURES, cell: (a) => (a.timeUsed === null ? "–" : clock(a.timeUsed)) },
              { id: "status", header: t`Status`, cell: (a) => statusText(a.status) },
              { id: "started", header: t`Started`, className: "whitespace-nowrap", cell: (a) => dateTime(a.startedAt) },
              { id: "leaves", header: t`Page leaves`, testId: "attempt-page-leaves", cell: (a) => <PageLeaveSummary count={a.pageLeaves.count} totalMs={a.pageLeaves.totalMs} /> },
            ]}
          />
        </div>
      </Part>
      <Part id="items-title" title={<Trans>Item analysis</Trans>}>
        {r.items.length === 0 && <p className="text-slate-600 dark:text-slate-300">{t`No finished attempts yet`}</p>}
        <ul className="space-y-2" data-testid="results-items">
          {r.items.map((item) => {
            const pct = Math.round(item.share * 100);
            const { correct, attempts } = item;
            return (
              <li key={item.questionId} className="space-y-1">
                <div className="flex justify-between gap-2">
                  <span className="min-w-0 truncate">
                    #{item.questionId} {item.stem.replace(/<[^>]*>/g, "")}
                  </span>
                  <span className="shrink-0 tabular-nums">{t`${pct}% right (${correct} of ${attempts})`}</span>
                </div>
                <div className="h-2 rounded bg-slate-200 dark:bg-slate-700" aria-hidden>
                  <div className="h-2 rounded bg-primary" style={{ width: `${pct}%` }} />
                </div>
              </li>
            );
          })}
        </ul>
      </Part>
    </div>
  );
}
