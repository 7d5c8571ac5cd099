import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { controlClass, FieldFrame } from "../../ui/form/Field.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudKeys, crudUrl, fieldErrorsOf, useCrudRow } from "../crud/api.ts";
import type { CrudRow } from "../crud/types.ts";
import type { PageLeave } from "../../../shared/exam/pageLeaves.ts";
import { PageLeaveList, PageLeaveSummary, pageLeavesOf } from "./PageLeaves.tsx";
import { FormFooter, FormAlert } from "../../ui/FormFooter.tsx";
import { useDirtyForm, useGuardedClose } from "../../ui/discardGuard.tsx";
import { submitWith } from "../../ui/form/submit.ts";


/** Each time the member left the exam page (the marking row as `edit` answers it). */
function AttemptLeaves({ id }: { id: number }) {
  const full = useCrudRow("exam/marking", id);
  if (full.isPending) return <Spinner className="size-4" />;
  const list = full.data?.page_leave_list;
  return Array.isArray(list) ? <PageLeaveList leaves={list as PageLeave[]} /> : null;
}

/**
 * Marks one short answer (`POST /admin/exam/marking/mark`): the member's answer beside the
 * reference and keywords, a score from 0 to the question's score in the paper, a comment the
 * member reads in their record; how often and how long the member left the exam page. A mark is
 * given once (the server refuses a second).
 */
export function MarkDialog({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const max = Number(row.max_score ?? 0);
  const done = row.status === "marked";
  // The question's own score bounds the mark (the server's markBody knows only the largest of any question).
  const schema = useMemo(
    () =>
      z.object({
        score: z.string().refine((text) => {
          const n = Number(text);
          return text.trim() !== "" && Number.isFinite(n) && n >= 0 && n <= max && Math.round(n * 100) === n * 100;
        }, { error: () => t`Enter a score from 0 to ${max}, with at most 2 decimals` }),
        comment: z.string(),
      }),
    [max, t],
  );
  const form = useForm({ defaultValues: { score: done ? String(row.score) : "", comment: String(row.comment ?? "") }, resolver: zodResolver(schema) });
  const error = form.formState.errors.score?.message ?? null;
  const [formError, setFormError] = useState<string | null>(null);
  useDirtyForm(form.formState.isDirty);
  const cancel = useGuardedClose(onDone);
  const save = useMutation({
    mutationFn: ({ score, comment }: z.infer<typeof schema>) =>
      request({ url: crudUrl("exam/marking", "mark"), method: "post", data: { id: row.id, score: Number(score), comment: comment.trim() } }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: crudKeys.all("exam/marking") });
      onDone();
    },
    onError: (e) => {
      const refusal = serverRefusal(e);
      if (!refusal) return;
      const fields = fieldErrorsOf(refusal.data);
      if (fields?.score) form.setError("score", { type: "server", message: fields.score });
      else setFormError(refusal.msg);
    },
  });
  const keywords = Array.isArray(row.keywords) ? (row.keywords as string[]) : [];
  const who = String(row.username ?? "");
  const words = keywords.join(", ");
  const leaves = pageLeavesOf(row);
  return (
    <form noValidate className="space-y-4 text-sm" onSubmit={submitWith(form.handleSubmit, (values) => save.mutate(values), () => setFormError(null))}>
      <div className="space-y-1">
        <p className="text-xs text-slate-600 dark:text-slate-300">
          <Trans>Question</Trans>
        </p>
        <p className="whitespace-pre-wrap">{String(row.stem ?? "").replace(/<[^>]*>/g, "")}</p>
      </div>
      <div className="space-y-1 rounded-md bg-slate-50 p-3 dark:bg-slate-800">
        <p className="text-xs text-slate-600 dark:text-slate-300">{t`Answer of ${who}`}</p>
        <p className="whitespace-pre-wrap" data-testid="mark-answer">
          {String(row.answer ?? "") || t`Not answered`}
        </p>
      </div>
      <div className="space-y-1" data-testid="page-leaves">
        <p className="text-xs text-slate-600 dark:text-slate-300">
          <Trans>Leaving the exam page</Trans>
        </p>
        <p>
          <PageLeaveSummary count={leaves.count} totalMs={leaves.totalMs} />
        </p>
        {leaves.count > 0 && <AttemptLeaves id={Number(row.id)} />}
      </div>
      {(row.reference || keywords.length > 0) && (
        <div className="space-y-1">
          <p className="text-xs text-slate-600 dark:text-slate-300">
            <Trans>Reference answer</Trans>
          </p>
          <p className="whitespace-pre-wrap">{String(row.reference ?? "")}</p>
          {keywords.length > 0 && <p className="text-xs">{t`Keywords: ${words}`}</p>}
        </div>
      )}
      <FieldFrame label={t`Score (0 to ${max})`} error={error}>
        {(control) => <input {...control} {...form.register("score")} inputMode="decimal" autoComplete="off" disabled={done} className={controlClass(error)} />}
      </FieldFrame>
      <FieldFrame label={t`Comment`} hint={t`The member reads it with their result`}>
        {(control) => <textarea {...control} {...form.register("comment")} rows={3} maxLength={2000} disabled={done} className={`${controlClass()} py-2`} />}
      </FieldFrame>
      <FormAlert text={formError} />
      <FormFooter className="pt-2" busy={save.isPending} onCancel={cancel} cancel={done ? <Trans>Close</Trans> : <Trans>Cancel</Trans>} submit={done ? null : <Trans>Save mark</Trans>} />
    </form>
  );
}

/** Accepts or rejects one late official answer (`POST /admin/exam/lateAnswer/decide`); the attempt is graded again. */
export function DecideDialog({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const full = useCrudRow("exam/lateAnswer", row.id);
  const [formError, setFormError] = useState<string | null>(null);
  const decide = useMutation({
    mutationFn: (decision: "accepted" | "rejected") => request({ url: crudUrl("exam/lateAnswer", "decide"), method: "post", data: { id: row.id, decision } }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: crudKeys.all("exam/lateAnswer") });
      onDone();
    },
    onError: (e) => setFormError(serverRefusal(e)?.msg ?? null),
  });
  const answer = full.data?.answer;
  const who = String(row.username ?? "");
  const away = Number(row.away_ms ?? 0);
  const minutes = Math.round(away / 60_000);
  return (
    <div className="space-y-4 text-sm">
      <p className="whitespace-pre-wrap">{String(row.stem ?? "").replace(/<[^>]*>/g, "")}</p>
      <div className="rounded-md bg-slate-50 p-3 dark:bg-slate-800">
        <p className="text-xs text-slate-600 dark:text-slate-300">{t`Answer of ${who}`}</p>
        <p className="whitespace-pre-wrap">{answer === undefined ? "…" : typeof answer === "string" ? answer : JSON.stringify(answer)}</p>
      </div>
      <p>{t`The device was last heard from in time ${minutes} minutes before this answer arrived.`}</p>
      <FormAlert text={formError} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        {row.status === "pending" && (
          <>
            <Button onClick={() => decide.mutate("rejected")} disabled={decide.isPending}>
              <Trans>Reject</Trans>
            </Button>
            <Button variant="primary" onClick={() => decide.mutate("accepted")} disabled={decide.isPending}>
              <Trans>Accept</Trans>
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
