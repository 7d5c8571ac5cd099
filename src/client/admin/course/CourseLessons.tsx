import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { FileText, Film, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { request } from "../../api/index.ts";
import { useAuth } from "../../routing/auth.tsx";
import { Button } from "../../ui/Button.tsx";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { formatClock } from "../../ui/format.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudKeys, crudUrl, useCrudDelete } from "../crud/api.ts";
import { CrudFormDialog } from "../crud/CrudForm.tsx";
import { actionNode } from "../crud/CrudScreen.tsx";
import type { CustomFieldProps, ListData } from "../crud/types.ts";
import lessons from "./lessons.ts";

const LESSONS = lessons.path;

/**
 * The lessons of the course being edited, in the member's order (weigh): position, title, video
 * or text, length, free preview, status; with "add lesson" (the lessons screen's own form, in
 * this course) and each lesson's edit and delete, for an admin whose rules allow them. A course
 * not saved yet has no lessons: the add form says they come after the first save (the courses
 * screen then keeps the form open as the new course's edit form).
 */
export function CourseLessons({ value, editing }: CustomFieldProps) {
  const { t } = useLingui();
  const client = useQueryClient();
  // The form field is the course's own `id` (absent on the add form).
  const id = editing ? Number(value ?? 0) || null : null;
  const canAdd = useAuth(actionNode(LESSONS, "add"));
  const canEdit = useAuth(actionNode(LESSONS, "edit"));
  const canDelete = useAuth(actionNode(LESSONS, "del"));
  // The lesson being added (null) or edited (its id); undefined: no lesson form open.
  const [open, setOpen] = useState<number | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<{ id: number; title: string } | null>(null);
  const remove = useCrudDelete(LESSONS);
  const lessonsOf = useQuery({
    // Under the lessons' own key: a lesson saved or deleted anywhere refreshes this list.
    queryKey: [...crudKeys.all(LESSONS), "course", id],
    enabled: id !== null,
    queryFn: async ({ signal }) =>
      (
        await request<ListData>({
          url: crudUrl(LESSONS, "index"),
          method: "get",
          params: { "search[0][field]": "course_id", "search[0][val]": id, "search[0][operator]": "eq", limit: 100, order: "weigh,desc" },
          signal,
        })
      ).data,
  });
  // The courses list counts lessons: counted again once a lesson changed.
  const deleteQuestion = (name: string) => t`Delete the lesson "${name}"?`;
  const lessonsChanged = () => void client.invalidateQueries({ queryKey: [...crudKeys.all("course/course"), "list"] });

  if (id === null) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-300">
        <Trans>Lessons can be added here once the course is saved: saving keeps this form open for them.</Trans>
      </p>
    );
  }

  const list = lessonsOf.data?.list ?? [];
  return (
    // The lesson form and the delete question are drawn in dialogs of their own, but in React
    // they sit inside the course's form: their submit must not reach it.
    <div className="space-y-2" onSubmit={(e) => e.stopPropagation()}>
      {lessonsOf.isPending ? (
        <Spinner className="size-5" />
      ) : lessonsOf.isError ? (
        <p className="text-sm text-red-700 dark:text-red-400">
          <Trans>The lessons could not be loaded.</Trans>
        </p>
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <Trans>No lessons yet.</Trans>
        </p>
      ) : (
        <ol aria-label={t`Lessons`} className="divide-y divide-slate-200 rounded-md border border-slate-300 dark:divide-slate-700 dark:border-slate-600" data-testid="course-lessons">
          {list.map((row, i) => {
            const video = row.video_type !== "";
            const Icon = video ? Film : FileText;
            const title = String(row.title ?? "");
            return (
              <li key={row.id} className="flex min-h-11 items-center gap-3 px-3 py-1 text-sm">
                <span className="w-6 shrink-0 text-right tabular-nums text-slate-600 dark:text-slate-300">{i + 1}</span>
                <Icon aria-hidden className="size-4 shrink-0 text-slate-600 dark:text-slate-300" />
                <span className="min-w-0 flex-1 truncate">
                  {title}
                  <span className="sr-only"> ({video ? t`Video` : t`Text`})</span>
                </span>
                {row.free_preview === true && (
                  <span className="shrink-0 rounded bg-green-100 px-1.5 text-xs text-green-800 dark:bg-green-900 dark:text-green-100">
                    <Trans>Free preview</Trans>
                  </span>
                )}
                {row.status === "disable" && (
                  <span className="shrink-0 rounded bg-slate-200 px-1.5 text-xs dark:bg-slate-700">
                    <Trans>Disabled</Trans>
                  </span>
                )}
                {video && <span className="shrink-0 tabular-nums text-slate-600 dark:text-slate-300">{formatClock(Number(row.duration))}</span>}
                {canEdit && (
                  <Button variant="ghost" size="iconSm" aria-label={t`Edit lesson ${title}`} onClick={() => setOpen(row.id)}>
                    <Pencil aria-hidden className="size-4" />
                  </Button>
                )}
                {canDelete && (
                  <Button variant="dangerGhost" size="iconSm" aria-label={t`Delete lesson ${title}`} onClick={() => setDeleting({ id: row.id, title })}>
                    <Trash2 aria-hidden className="size-4" />
                  </Button>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {canAdd && (
        <Button onClick={() => setOpen(null)}>
          <Plus aria-hidden className="size-4" />
          <Trans>Add lesson</Trans>
        </Button>
      )}
      {open !== undefined && (
        <CrudFormDialog
          definition={lessons}
          id={open}
          preset={{ course_id: id }}
          onClose={() => {
            setOpen(undefined);
            lessonsChanged();
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={t`Delete lesson`}
        description={deleting ? deleteQuestion(deleting.title) : undefined}
        confirmLabel={t`Delete`}
        busy={remove.isPending}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate([deleting.id], { onSuccess: lessonsChanged, onSettled: () => setDeleting(null) });
        }}
      />
    </div>
  );
}
