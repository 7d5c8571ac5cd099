import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Film, FileText } from "lucide-react";
import { request } from "../../api/index.ts";
import { formatClock } from "../../ui/format.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import type { CustomFieldProps, ListData } from "../crud/types.ts";

/**
 * The lessons of the course being edited, read-only, in the member's order (weigh): title, video
 * or text, length, free preview, status. They are edited on the lessons screen.
 */
export function CourseLessons({ value }: CustomFieldProps) {
  const { t } = useLingui();
  // The form field is the course's own `id` (edit form only).
  const id = Number(value ?? 0) || null;
  const lessons = useQuery({
    queryKey: ["admin-course-lessons", id],
    enabled: id !== null,
    queryFn: async ({ signal }) =>
      (
        await request<ListData>({
          url: "/admin/course/lesson/index",
          method: "get",
          params: { "search[0][field]": "course_id", "search[0][val]": id, "search[0][operator]": "eq", limit: 100, order: "weigh,desc" },
          signal,
        })
      ).data,
  });
  if (id === null) return null;
  if (lessons.isPending) return <Spinner className="size-5" />;
  if (lessons.isError) return <p className="text-sm text-red-700 dark:text-red-400"><Trans>The lessons could not be loaded.</Trans></p>;
  const list = lessons.data.list;
  if (list.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-300"><Trans>No lessons yet: add them on the Lessons screen.</Trans></p>;
  return (
    <ol className="divide-y divide-slate-200 rounded-md border border-slate-300 dark:divide-slate-700 dark:border-slate-600" data-testid="course-lessons">
      {list.map((row, i) => {
        const video = row.video_type !== "";
        const Icon = video ? Film : FileText;
        return (
          <li key={row.id} className="flex min-h-11 items-center gap-3 px-3 py-2 text-sm">
            <span className="w-6 shrink-0 text-right tabular-nums text-slate-500 dark:text-slate-400">{i + 1}</span>
            <Icon aria-label={video ? t`Video` : t`Text`} className="size-4 shrink-0 text-slate-500 dark:text-slate-400" />
            <span className="min-w-0 flex-1 truncate">{String(row.title ?? "")}</span>
            {row.free_preview === true && <span className="shrink-0 rounded bg-green-100 px-1.5 text-xs text-green-800 dark:bg-green-900 dark:text-green-100"><Trans>Free preview</Trans></span>}
            {row.status === "disable" && <span className="shrink-0 rounded bg-slate-200 px-1.5 text-xs dark:bg-slate-700"><Trans>Disabled</Trans></span>}
            {video && <span className="shrink-0 tabular-nums text-slate-500 dark:text-slate-400">{formatClock(Number(row.duration))}</span>}
          </li>
        );
      })}
    </ol>
  );
}
