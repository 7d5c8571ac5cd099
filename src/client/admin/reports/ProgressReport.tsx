import { lazy, Suspense } from "react";
import type { MessageDescriptor } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useSearchParams } from "react-router-dom";
import { COURSE_STATUSES, REPORT_GROUPS, ROOM_STATUSES, type ProgressReport as Report, type ProgressStatus, type ReportGroup } from "../../../shared/reports.ts";
import { formatTime } from "../../../shared/time.ts";
import { request } from "../../api/index.ts";
import { downloadFile } from "../../api/download.ts";
import { checkAuth } from "../../routing/auth.tsx";
import { useNavTabs } from "../../stores/navTabs.ts";
import { Button } from "../../ui/Button.tsx";
import { DataTable } from "../../ui/DataTable.tsx";
import { LoadRetry } from "../../ui/LoadRetry.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { Pager, pageCountOf } from "../../ui/Pager.tsx";
import { Select } from "../../ui/Select.tsx";

const ProgressChart = lazy(() => import("./ProgressChart.tsx"));

const PAGE_SIZE = 20;

export const STATUS_LABELS: Record<ProgressStatus, MessageDescriptor> = {
  not_started: msg`Not started`,
  in_progress: msg`In progress`,
  failed: msg`Failed`,
  passed: msg`Passed`,
  completed: msg`Completed`,
};

const GROUP_LABELS: Record<ReportGroup, MessageDescriptor> = { classroom: msg`Classroom`, company: msg`Company`, duty: msg`Duty` };

const STATUS_CLASS: Record<ProgressStatus, string> = {
  not_started: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  in_progress: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-200",
  failed: "bg-red-100 text-red-800 dark:bg-red-900/40 dark:text-red-300",
  passed: "bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-300",
  completed: "bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-300",
};

/**
 * Reports > Progress (`reports/progress`): pick a classroom, company or duty; each room and course
 * assigned to it with its members' counts by status (and overdue); the chosen one's chart and
 * members, filtered by status or overdue, paged, exported. The choice lives in the address
 * (`?group=classroom&id=3&target=room-5`), so the dashboard's "due this week" links here.
 */
export default function ProgressReport() {
  const { t, i18n } = useLingui();
  const [params, setParams] = useSearchParams();
  const canExport = useNavTabs((s) => checkAuth({ name: "/admin/reports/progress", subNodeName: "/admin/reports/progress/export" }, s.authNode, ""));
  const group = (REPORT_GROUPS as readonly string[]).includes(params.get("group") ?? "") ? (params.get("group") as ReportGroup) : "classroom";
  const id = params.get("id") ?? "";
  const target = params.get("target") ?? "";
  const status = params.get("status") ?? "";
  const overdue = params.get("overdue") ?? "";
  const page = Math.max(1, Number(params.get("page")) || 1);
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!("page" in changes)) next.delete("page");
    setParams(next, { replace: true });
  };

  const groups = useQuery({
    queryKey: ["admin", "reports", "groups", group],
    queryFn: async ({ signal }) => (await request<{ list: { id: number; name: string }[] }>({ url: "/admin/reports/progress/groups", method: "get", params: { group }, signal })).data.list,
  });
  const query = { group, id, ...(target ? { target } : {}), ...(status ? { status } : {}), ...(overdue ? { overdue } : {}) };
  const report = useQuery({
    queryKey: ["admin", "reports", "progress", query, page],
    enabled: id !== "",
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => (await request<Report>({ url: "/admin/reports/progress/index", method: "get", params: { ...query, page, limit: PAGE_SIZE }, signal })).data,
  });
  const download = useMutation({
    mutationFn: (format: "csv" | "xlsx") =>
      downloadFile("/admin/reports/progress/export", { ...query, format, tz: Intl.DateTimeFormat().resolvedOptions().timeZone }, "progress", format, "/admin/reports/progress/groups?group=duty"),
  });

  const data = report.data;
  const groupName = data?.group.name ?? "";
  const chosen = data?.targets.find((x) => x.key === data.target);
  const statuses: readonly ProgressStatus[] = chosen?.kind === "course" ? COURSE_STATUSES : ROOM_STATUSES;

  return (
    <section className="space-y-4">
      <h1 className="text-xl font-semibold">
        <Trans>Progress report</Trans>
      </h1>
      <div className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
        <label className="grid gap-1 text-sm">
          <span>
            <Trans>Group by</Trans>
          </span>
          <Select ariaLabel={t`Group by`} value={group} onChange={(v) => update({ group: v, id: "", target: "", status: "", overdue: "" })} options={REPORT_GROUPS.map((g) => ({ value: g, label: i18n._(GROUP_LABELS[g]) }))} />
        </label>
        <label className="grid min-w-48 gap-1 text-sm">
          <span>{i18n._(GROUP_LABELS[group])}</span>
          <Select
            ariaLabel={i18n._(GROUP_LABELS[group])}
            value={id}
            busy={groups.isPending}
            emptyLabel={t`Please choose`}
            onChange={(v) => update({ id: v, target: "", status: "", overdue: "" })}
            options={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
          />
        </label>
        {data && data.targets.length > 0 && (
          <label className="grid min-w-48 gap-1 text-sm">
            <span>
              <Trans>Room or course</Trans>
            </span>
            <Select
              ariaLabel={t`Room or course`}
              value={data.target ?? ""}
              onChange={(v) => update({ target: v, status: "" })}
              options={data.targets.map((x) => ({ value: x.key, label: `${x.kind === "room" ? t`Exam` : t`Course`}: ${x.title}` }))}
            />
          </label>
        )}
        {data?.target && (
          <>
            <label className="grid gap-1 text-sm">
              <span>
                <Trans>Status</Trans>
              </span>
              <Select ariaLabel={t`Status`} value={status} emptyLabel={t`All`} onChange={(v) => update({ status: v })} options={statuses.map((s) => ({ value: s, label: i18n._(STATUS_LABELS[s]) }))} />
            </label>
            <label className="flex items-center gap-2 pb-2 text-sm">
              <input type="checkbox" className="size-4" checked={overdue === "1"} onChange={(e) => update({ overdue: e.target.checked ? "1" : "" })} />
              <Trans>Overdue only</Trans>
            </label>
            {canExport && (
              <div className="ml-auto flex gap-2">
                {(["xlsx", "csv"] as const).map((format) => (
                  <Button key={format} onClick={() => download.mutate(format)} disabled={download.isPending}>
                    <Download aria-hidden className="size-4" />
                    {format === "xlsx" ? <Trans>Export .xlsx</Trans> : <Trans>Export .csv</Trans>}
                  </Button>
                ))}
              </div>
            )}
          </>
        )}
      </div>
      {id === "" ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <Trans>Choose a classroom, company or duty to see its progress.</Trans>
        </p>
      ) : report.isError && !data ? (
        <LoadRetry message={<Trans>The report could not be loaded.</Trans>} onRetry={() => void report.refetch()} />
      ) : !data ? (
        <PageSpinner />
      ) : data.targets.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <Trans>No room or course is assigned to {groupName}.</Trans>
        </p>
      ) : (
        <>
          <DataTable
            caption={t`Rooms and courses assigned to ${groupName}`}
            data={data.targets}
            rowKey={(x) => x.key}
            rowProps={(x) => ({ className: x.key === data.target ? "bg-primary/5" : "", "data-testid": `target-${x.key}` })}
            columns={[
              {
                id: "title",
                header: t`Room or course`,
                rowHeader: true,
                cell: (x) => (
                  <Button variant="ghost" size="sm" className="text-left text-primary" onClick={() => update({ target: x.key, status: "" })}>
                    {x.kind === "room" ? t`Exam` : t`Course`}: {x.title}
                  </Button>
                ),
              },
              { id: "ends", header: t`Ends`, className: "whitespace-nowrap tabular-nums", cell: (x) => (x.endsAt ? formatTime(x.endsAt, "YYYY-MM-DD HH:mm") : "–") },
              { id: "members", header: t`Members`, className: "tabular-nums", cell: (x) => x.members },
              { id: "not_started", header: t`Not started`, className: "tabular-nums", cell: (x) => x.counts.not_started },
              { id: "in_progress", header: t`In progress`, className: "tabular-nums", cell: (x) => x.counts.in_progress },
              { id: "failed", header: t`Failed`, className: "tabular-nums", cell: (x) => (x.kind === "room" ? x.counts.failed : "–") },
              { id: "done", header: t`Passed / completed`, className: "tabular-nums", cell: (x) => (x.kind === "room" ? x.counts.passed : x.counts.completed) },
              { id: "overdue", header: t`Overdue`, className: (x) => `tabular-nums ${x.counts.overdue > 0 ? "font-semibold text-red-700 dark:text-red-400" : ""}`, cell: (x) => x.counts.overdue },
            ]}
          />
          {chosen && (
            <div className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
              <h2 className="mb-2 font-semibold">{chosen.title}</h2>
              <Suspense fallback={<PageSpinner className="my-10" />}>
                <ProgressChart labels={statuses.map((s) => i18n._(STATUS_LABELS[s]))} counts={statuses.map((s) => chosen.counts[s])} />
              </Suspense>
            </div>
          )}
          <DataTable
            caption={t`Members`}
            busy={report.isFetching}
            data={data.list}
            rowKey={(r) => r.id}
            empty={{ content: t`No member matches.` }}
            columns={[
              { id: "member", header: t`Member`, rowHeader: true, cell: (r) => (r.nickname ? `${r.nickname} (${r.username})` : r.username) },
              {
                id: "status",
                header: t`Status`,
                cell: (r) => (
                  <span className="flex flex-wrap gap-1">
                    <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[r.status]}`}>{i18n._(STATUS_LABELS[r.status])}</span>
                    {r.overdue && <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800 dark:bg-red-900/40 dark:text-red-300">{t`Overdue`}</span>}
                  </span>
                ),
              },
              chosen?.kind === "course"
                ? { id: "lessons", header: t`Lessons done`, className: "tabular-nums", cell: (r) => r.lessonsDone }
                : { id: "score", header: t`Best score`, className: "tabular-nums", cell: (r) => (r.bestScore === null ? "–" : i18n.number(r.bestScore)) },
              ...(chosen?.kind === "course" ? [] : [{ id: "attempts", header: t`Attempts`, className: "tabular-nums", cell: (r: Report["list"][number]) => r.attempts }]),
              { id: "last", header: t`Last activity`, className: "whitespace-nowrap tabular-nums", cell: (r) => (r.lastAt ? formatTime(r.lastAt, "YYYY-MM-DD HH:mm") : "–") },
            ]}
          />
          <Pager page={page} pageCount={pageCountOf(data.total, PAGE_SIZE)} onPage={(p) => update({ page: String(p) })} summary={t`${plural(data.total, { one: "# member", other: "# members" })}`} />
        </>
      )}
    </section>
  );
}
