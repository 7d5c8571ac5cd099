import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { controlClass, FieldFrame } from "../../ui/form/Field.tsx";
import { Select } from "../../ui/Select.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudKeys, crudUrl, fieldErrorsOf } from "../crud/api.ts";
import { RemoteSelect } from "../crud/RemoteSelect.tsx";
import type { CrudRow, ListData } from "../crud/types.ts";
import { DIFFICULTY_OPTIONS, QUESTION_TYPE_OPTIONS } from "./options.ts";
import { FormFooter, FormAlert } from "../../ui/FormFooter.tsx";

/** The paper list's "questions add up to" cell: red while it differs from the paper's total. */
export function rowsTotalCell(row: CrudRow) {
  const sum = Number(row.rows_total ?? 0);
  const off = sum !== Number(row.total_score);
  return <span className={`tabular-nums ${off ? "font-medium text-red-700 dark:text-red-400" : ""}`}>{sum}</span>;
}

type Kind = "fixed" | "draw";

/**
 * A paper's composer (row action "Questions"): its rows in paper order with their subtotals and
 * the running total against the paper's total score (and that a room cannot use the paper while
 * they differ); a fixed question picked from the bank (remote select over `exam/question`, its
 * points defaulting to the question's own score) or a draw rule (classify, type, difficulty or
 * any, count) added, with the total the paper would reach shown as it is typed; rows removed. The
 * server refuses a draw rule its bank cannot fill at that type and difficulty (shown beside the
 * count).
 */
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
  const [kind, setKind] = useState<Kind>("fixed");
  const [questionId, setQuestionId] = useState<unknown>(null);
  const [classifyId, setClassifyId] = useState<unknown>(null);
  const [type, setType] = useState("single");
  /** "" any difficulty, else "1".."5". */
  const [difficulty, setDifficulty] = useState("");
  const [count, setCount] = useState("1");
  const [score, setScore] = useState("1");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: crudKeys.all("exam/paperRow") }), client.invalidateQueries({ queryKey: crudKeys.all("exam/paper") })]);
  const add = useMutation({
    mutationFn: () => {
      const list = rows.data?.list ?? [];
      const weigh = list.length ? Math.min(...list.map((r) => Number(r.weigh ?? 0))) - 1 : 0;
      const body =
        kind === "fixed"
          ? { paper_id: paperId, kind, question_id: questionId, score: Number(score), weigh }
          : { paper_id: paperId, kind, classify_id: classifyId, question_type: type, difficulty: difficulty === "" ? null : Number(difficulty), count: Number(count), score: Number(score), weigh };
      return request({ url: crudUrl("exam/paperRow", "add"), method: "post", data: body }, { showCodeMessage: false, showSuccessMessage: true });
    },
    onSuccess: async () => {
      setErrors({});
      setFormError(null);
      setQuestionId(null);
      await refresh();
    },
    onError: (e) => {
      const refusal = serverRefusal(e);
      if (!refusal) return;
      const fields = fieldErrorsOf(refusal.data) ?? {};
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFormError(refusal.msg);
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
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <fieldset className="flex flex-wrap gap-4 text-sm">
          <legend className="sr-only">{t`Kind`}</legend>
          {(["fixed", "draw"] as const).map((k) => (
            <label key={k} className="flex min-h-11 items-center gap-2">
              <input type="radio" name="composer-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
              {k === "fixed" ? t`Fixed question` : t`Draw rule`}
            </label>
          ))}
        </fieldset>
        {kind === "fixed" ? (
          <FieldFrame label={t`Question`} error={errors.question_id ?? null}>
            {(control) => (
              <RemoteSelect
                control={control}
                remote={{ path: "exam/question", labelField: "stem" }}
                value={questionId}
                onChange={(id, picked) => {
                  setQuestionId(id);
                  // A fixed question is worth its own score unless the paper says otherwise.
                  if (picked && picked.score !== undefined && picked.score !== null) setScore(String(Number(picked.score)));
                }}
                placeholder={t`Search the bank`}
              />
            )}
          </FieldFrame>
        ) : (
          <>
            <FieldFrame label={t`Classify`} error={errors.classify_id ?? null}>
              {(control) => <RemoteSelect control={control} remote={{ path: "exam/classify", labelField: "title" }} value={classifyId} onChange={setClassifyId} />}
            </FieldFrame>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              <FieldFrame label={t`Question type`} error={errors.question_type ?? null}>
                {(control) => (
                  <Select control={control} value={type} onChange={setType} options={QUESTION_TYPE_OPTIONS.map((o) => ({ value: String(o.value), label: i18n._(o.label) }))} />
                )}
              </FieldFrame>
              <FieldFrame label={t`Difficulty`} error={errors.difficulty ?? null}>
                {(control) => (
                  <Select
                    control={control}
                    value={difficulty}
                    onChange={setDifficulty}
                    emptyLabel={t`Any difficulty`}
                    options={DIFFICULTY_OPTIONS.map((o) => ({ value: String(o.value), label: i18n._(o.label) }))}
                  />
                )}
              </FieldFrame>
              <FieldFrame label={t`Count`} error={errors.count ?? null}>
                {(control) => <input {...control} name="count" inputMode="numeric" value={count} onChange={(e) => setCount(e.target.value)} className={controlClass(errors.count)} />}
              </FieldFrame>
            </div>
          </>
        )}
        <FieldFrame label={kind === "fixed" ? t`Score` : t`Score each`} error={errors.score ?? null}>
          {(control) => <input {...control} name="score" inputMode="decimal" value={score} onChange={(e) => setScore(e.target.value)} className={controlClass(errors.score)} />}
        </FieldFrame>
        {withRow !== null && (
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="composer-with-row">
            {t`With this row: ${withRow} of ${promised} points`}
          </p>
        )}
        <FormAlert text={formError} />
        <FormFooter busy={add.isPending} onCancel={onDone} cancel={<Trans>Close</Trans>} submit={<Trans>Add row</Trans>} />
      </form>
    </div>
  );
}
