import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { paperRowAdd } from "../../../shared/admin/papers.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { ControlledField } from "../../ui/form/ControlledField.tsx";
import { controlClass, FieldFrame } from "../../ui/form/Field.tsx";
import { sentSchemaResolver } from "../../ui/form/sentSchemaResolver.ts";
import { Select } from "../../ui/Select.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudKeys, crudUrl, fieldErrorsOf } from "../crud/api.ts";
import { rowLabel } from "../crud/fields/RemoteOptions.tsx";
import { RemoteSelect } from "../crud/RemoteSelect.tsx";
import type { CrudRow, ListData } from "../crud/types.ts";
import { DIFFICULTY_OPTIONS, QUESTION_TYPE_OPTIONS } from "./options.ts";
import { FormFooter, FormAlert } from "../../ui/FormFooter.tsx";
import { useDirtyForm, useGuardedClose } from "../../ui/discardGuard.tsx";

/** The paper list's "questions add up to" cell: red while it differs from the paper's total. */
export function rowsTotalCell(row: CrudRow) {
  const sum = Number(row.rows_total ?? 0);
  const off = sum !== Number(row.total_score);
  return <span className={`tabular-nums ${off ? "font-medium text-red-700 dark:text-red-400" : ""}`}>{sum}</span>;
}

type Kind = "fixed" | "draw";
/** `difficulty`: "" any, else "1".."5"; `count` and `score` as typed. */
type RowValues = { kind: Kind; question_id: unknown; classify_id: unknown; question_type: string; difficulty: string; count: string; score: string };

/**
 * What the composer checks itself: the figures typed in, by the shared schema's own fields (so
 * with the server's words). Whether a question or a classify is picked stays the server's check,
 * answered beside the same field.
 */
const typedFields = z.object({ count: paperRowAdd.shape.count, score: paperRowAdd.shape.score });

/**
 * A paper's composer (row action "Compose questions"): its rows in paper order with their subtotals and
 * the running total against the paper's total score (and that a room cannot use the paper while
 * they differ); a fixed question picked from the bank (remote select over `exam/question`, its
 * points defaulting to the question's own score) or a draw rule (classify, type, difficulty or
 * any, count) added, with the total the paper would reach shown as it is typed; rows removed. The
 * server refuses a draw rule its bank cannot fill at that type and difficulty (shown beside the
 * count).
 */
/** What tells a suggested question from another of the same text: its id, type and bank ("#12 · Single choice · Road signs"). */
export function suggestionDetails(question: CrudRow, type: string, bank: string): string {
  return [`#${String(question.id ?? "")}`, type, bank].filter((part) => part !== "").join(" · ");
}

export function PaperComposer({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const client = useQueryClient();
  const paperId = row.id;
  const rows = useQuery({
    queryKey: [...crudKeys.all("exam/paperRow"), "paper", paperId],
    queryFn: async ({ signal }) =>
      (
        await request<ListData>({
          url: crudUrl("exam/paperRow", "index"),
          method: "get",
          params: { "search[0][field]": "paper_id", "search[0][operator]": "eq", "search[0][val]": paperId, limit: 100 },
          signal,
        })
      ).data,
  });
  /** The row as the server takes it (new rows go first: below the lowest weigh). */
  const sent = (values: RowValues) => {
    const list = rows.data?.list ?? [];
    const weigh = list.length ? Math.min(...list.map((r) => Number(r.weigh ?? 0))) - 1 : 0;
    const { kind, score } = values;
    return kind === "fixed"
      ? { paper_id: paperId, kind, question_id: values.question_id, score: Number(score), weigh }
      : {
          paper_id: paperId,
          kind,
          classify_id: values.classify_id,
          question_type: values.question_type,
          difficulty: values.difficulty === "" ? null : Number(values.difficulty),
          count: Number(values.count),
          score: Number(score),
          weigh,
        };
  };
  const form = useForm<RowValues>({
    defaultValues: { kind: "fixed", question_id: null, classify_id: null, question_type: "single", difficulty: "", count: "1", score: "1" },
    resolver: sentSchemaResolver(typedFields, sent),
  });
  const [kind, count, score] = useWatch({ control: form.control, name: ["kind", "count", "score"] });
  const errors = form.formState.errors;
  const [formError, setFormError] = useState<string | null>(null);
  useDirtyForm(form.formState.isDirty);
  const close = useGuardedClose(onDone);
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: crudKeys.all("exam/paperRow") }), client.invalidateQueries({ queryKey: crudKeys.all("exam/paper") })]);
  const add = useMutation({
    mutationFn: (values: RowValues) => request({ url: crudUrl("exam/paperRow", "add"), method: "post", data: sent(values) }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: async () => {
      setFormError(null);
      // The row is saved: what stays in the form (kind, figures) is the next row's start, not unsaved work.
      form.reset({ ...form.getValues(), question_id: null });
      await refresh();
    },
    onError: (e) => {
      const refusal = serverRefusal(e);
      if (!refusal) return;
      const fields = Object.entries(fieldErrorsOf(refusal.data) ?? {});
      for (const [name, message] of fields) form.setError(name as keyof RowValues, { type: "server", message });
      if (fields.length === 0) setFormError(refusal.msg);
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => request({ url: crudUrl("exam/paperRow", "del"), method: "delete", params: { ids: [id] } }, { showSuccessMessage: true }),
    onSuccess: refresh,
  });
  const list = rows.data?.list ?? [];
  const running = list.reduce<number[]>((acc, r) => [...acc, Math.round(((acc.at(-1) ?? 0) + Number(r.subtotal ?? 0)) * 100) / 100], []);
  const total = running.at(-1) ?? 0;
  const promised = Number(row.total_score ?? 0);
  // What the paper would add up to with the row being added (its score times its count).
  const adding = Number(score) * (kind === "fixed" ? 1 : Number(count));
  const withRow = Number.isFinite(adding) ? Math.round((total + adding) * 100) / 100 : null;
  const typeLabel = (v: unknown) => {
    const o = QUESTION_TYPE_OPTIONS.find((x) => x.value === v);
    return o ? i18n._(o.label) : String(v ?? "");
  };
  return (
    <div className="space-y-4">
      <p className="text-sm font-medium">{String(row.title ?? "")}</p>
      {rows.isPending ? (
        <Spinner className="mx-auto my-4 size-6" />
      ) : (
        <ol className="divide-y divide-slate-200 rounded-md border border-slate-200 dark:divide-slate-700 dark:border-slate-700" data-testid="composer-rows">
          {list.length === 0 && <li className="p-3 text-sm text-slate-600 dark:text-slate-300">{t`No questions yet`}</li>}
          {list.map((r, i) => {
            const each = Number(r.score);
            const n = Number(r.count);
            const running_ = running[i];
            const typeName = typeLabel(r.question_type);
            const bankName = String(r.classify_title ?? "");
            const level = r.difficulty === null || r.difficulty === undefined ? null : Number(r.difficulty);
            const position = i + 1;
            return (
              <li key={r.id} className="flex items-start gap-2 p-2 text-sm">
                <div className="min-w-0 flex-1">
                  <p className="truncate">
                    {r.kind === "fixed"
                      ? String(r.question_stem ?? `#${String(r.question_id)}`)
                      : level === null
                        ? t`Draw ${n} × ${typeName} of any difficulty from ${bankName}`
                        : t`Draw ${n} × ${typeName} of difficulty ${level} from ${bankName}`}
                  </p>
                  <p className="text-xs text-slate-600 dark:text-slate-300">
                    {r.kind === "fixed" ? t`${each} points` : t`${each} points each`} · {t`Running total ${running_}`}
                  </p>
                </div>
                <Button variant="dangerGhost" size="icon" aria-label={t`Remove row ${position}`} onClick={() => remove.mutate(r.id)}>
                  <Trash2 aria-hidden className="size-4" />
                </Button>
              </li>
            );
          })}
        </ol>
      )}
      <p role="status" data-testid="composer-total" className={`rounded-md px-3 py-2 text-sm ${total === promised ? "bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200" : "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200"}`}>
        {total === promised ? t`Questions add up to ${total} of ${promised} points` : t`Questions add up to ${total}, the paper promises ${promised} points`}
        {total !== promised && (
          <span className="block text-xs">
            <Trans>An exam room cannot use this paper until its questions add up to its total.</Trans>
          </span>
        )}
      </p>
      <form
        noValidate
        className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700"
        onSubmit={(e) => void form.handleSubmit((values) => add.mutate(values))(e)}
      >
        <fieldset className="flex flex-wrap gap-4 text-sm">
          <legend className="sr-only">{t`Kind`}</legend>
          {(["fixed", "draw"] as const).map((k) => (
            <label key={k} className="flex min-h-11 items-center gap-2">
              <input type="radio" name="composer-kind" value={k} checked={kind === k} onChange={() => form.setValue("kind", k)} />
              {k === "fixed" ? t`Fixed question` : t`Draw rule`}
            </label>
          ))}
        </fieldset>
        {kind === "fixed" ? (
          <ControlledField form={form} name="question_id" label={t`Question`}>
            {(control, field) => (
              <RemoteSelect
                control={control}
                remote={{ path: "exam/question", labelField: "stem" }}
                value={field.value}
                onChange={(id, picked) => {
                  field.onChange(id);
                  // A fixed question is worth its own score unless the paper says otherwise.
                  if (picked && picked.score !== undefined && picked.score !== null) form.setValue("score", String(Number(picked.score)));
                }}
                placeholder={t`Search the bank`}
                describe={(q) => suggestionDetails(q, typeLabel(q.type), rowLabel(q, "classify_title", i18n.locale))}
              />
            )}
          </ControlledField>
        ) : (
          <>
            <ControlledField form={form} name="classify_id" label={t`Classify`}>
              {(control, field) => <RemoteSelect control={control} remote={{ path: "exam/classify", labelField: "title" }} value={field.value} onChange={field.onChange} />}
            </ControlledField>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              <ControlledField form={form} name="question_type" label={t`Question type`}>
                {(control, field) => (
                  <Select control={control} value={String(field.value)} onChange={field.onChange} options={QUESTION_TYPE_OPTIONS.map((o) => ({ value: String(o.value), label: i18n._(o.label) }))} />
                )}
              </ControlledField>
              <ControlledField form={form} name="difficulty" label={t`Difficulty`}>
                {(control, field) => (
                  <Select
                    control={control}
                    value={String(field.value)}
                    onChange={field.onChange}
                    emptyLabel={t`Any difficulty`}
                    options={DIFFICULTY_OPTIONS.map((o) => ({ value: String(o.value), label: i18n._(o.label) }))}
                  />
                )}
              </ControlledField>
              <FieldFrame label={t`Count`} error={errors.count?.message ?? null}>
                {(control) => <input {...control} {...form.register("count")} inputMode="numeric" className={controlClass(errors.count)} />}
              </FieldFrame>
            </div>
          </>
        )}
        <FieldFrame label={kind === "fixed" ? t`Score` : t`Score each`} error={errors.score?.message ?? null}>
          {(control) => <input {...control} {...form.register("score")} inputMode="decimal" className={controlClass(errors.score)} />}
        </FieldFrame>
        {withRow !== null && (
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="composer-with-row">
            {t`With this row: ${withRow} of ${promised} points`}
          </p>
        )}
        <FormAlert text={formError} />
        <FormFooter busy={add.isPending} onCancel={close} cancel={<Trans>Close</Trans>} submit={<Trans>Add row</Trans>} />
      </form>
    </div>
  );
}
