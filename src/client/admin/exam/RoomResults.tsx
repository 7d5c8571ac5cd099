import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { lazy, Suspense } from "react";
import type { RoomResults as Results } from "../../../shared/admin/rooms.ts";
import { request } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudUrl } from "../crud/api.ts";
import type { CrudRow } from "../crud/types.ts";
import { PageLeaveSummary } from "./PageLeaves.tsx";

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

/**
 * A room's results (row action "Results", `GET /admin/exam/room/results`): the summary, the
 * score distribution (chart and numbers), each attempt with member, score, time used, status
 * and how often and how long the member left the exam page, item analysis, and the .xlsx export (`GET export`).
 */
export function RoomResults({ row }: { row: CrudRow; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const results = useQuery({
    queryKey: ["crud", "exam/room", "results", row.id],
    queryFn: async ({ signal }) => (await request<Results>({ url: crudUrl("exam/room", "results"), method: "get", params: { id: row.id }, signal })).data,
  });
  const download = useMutation({
    mutationFn: async () => {
      const res = (await request({ url: crudUrl("exam/room", "export"), method: "get", params: { id: row.id }, responseType: "blob" }, { reductDataFormat: false })) as unknown as { data: Blob };
      const url = URL.createObjectURL(res.data);
      const a = document.createElement("a");
      a.href = url;
      a.download = `room-${row.id}-results.xlsx`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
  if (results.isPending) return <Spinner className="mx-auto my-8 size-8" />;
  if (!results.data) return <p role="alert">{t`The results could not be loaded`}</p>;
  const r = results.data;
  const statusText = (s: string) => (s === "open" ? t`In progress` : s === "submitted" ? t`Submitted` : t`Time up`);
  const dateTime = (s: number) => i18n.date(new Date(s * 1000), { dateStyle: "short", timeStyle: "short" });
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
      <section aria-labelledby="dist-title" className="space-y-2">
        <h3 id="dist-title" className="font-semibold">
          <Trans>Score distribution</Trans>
        </h3>
        <Suspense fallback={<div className="h-48 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" />}>
          <RoomResultsChart labels={labels} counts={r.distribution.map((d) => d.count)} />
        </Suspense>
        <p className="sr-only">{r.distribution.map((d, i) => `${labels[i]}: ${d.count}`).join(", ")}</p>
      </section>
      <section aria-labelledby="attempts-title" className="space-y-2">
        <h3 id="attempts-title" className="font-semibold">
          <Trans>Each attempt</Trans>
        </h3>
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-labelledby="attempts-title">
          <table className="w-full min-w-[44rem] text-start" data-testid="results-attempts">
            <thead className="text-xs text-slate-600 dark:text-slate-300">
              <tr>
                <th className="p-2 text-start">{t`Member`}</th>
                <th className="p-2 text-end">{t`Score`}</th>
                <th className="p-2 text-start">{t`Result`}</th>
                <th className="p-2 text-end">{t`Time used`}</th>
                <th className="p-2 text-start">{t`Status`}</th>
                <th className="p-2 text-start">{t`Started`}</th>
                <th className="p-2 text-start">{t`Page leaves`}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
              {r.attempts.length === 0 && (
                <tr>
                  <td colSpan={7} className="p-2 text-slate-600 dark:text-slate-300">
                    {t`No one has sat this room yet`}
                  </td>
                </tr>
              )}
              {r.attempts.map((a) => (
                <tr key={a.id}>
                  <td className="p-2">{a.nickname || a.username}</td>
                  <td className="p-2 text-end tabular-nums">{a.score ?? "–"}</td>
                  <td className="p-2">
                    {a.passed === null ? "–" : a.passed ? t`Passed` : t`Failed`}
                    {a.pendingMarks > 0 && <ToMark count={a.pendingMarks} />}
                  </td>
                  <td className="p-2 text-end tabular-nums">{a.timeUsed === null ? "–" : clock(a.timeUsed)}</td>
                  <td className="p-2">{statusText(a.status)}</td>
                  <td className="p-2 whitespace-nowrap">{dateTime(a.startedAt)}</td>
                  <td className="p-2" data-testid="attempt-page-leaves">
                    <PageLeaveSummary count={a.pageLeaves.count} totalMs={a.pageLeaves.totalMs} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="items-title" className="space-y-2">
        <h3 id="items-title" className="font-semibold">
          <Trans>Item analysis</Trans>
        </h3>
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
      </section>
    </div>
  );
}
