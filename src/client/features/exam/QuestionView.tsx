import { useId, type ReactNode } from "react";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { CheckCircle2, XCircle } from "lucide-react";
import type { AnswerMarks } from "../../../shared/exam/grading.ts";
import type { CorrectAnswer, ExamQuestion, GivenAnswer, QuestionType } from "../../../shared/exam/types.ts";
import { QuestionText } from "./QuestionText.tsx";

export const TYPE_LABELS: Record<QuestionType, MessageDescriptor> = {
  single: msg`Single choice`,
  multiple: msg`Multiple choice`,
  judge: msg`True or false`,
  fill: msg`Fill in the blanks`,
  short: msg`Short answer`,
};

/** How answers read as text in the reader's language: true/false, and a list of options ("A, B" / "A、B"). */
export interface AnswerLabels {
  true: string;
  false: string;
  list(items: readonly string[]): string;
}

/** Options as a list the language writes them: "A, B, D" in English, "A、B、D" in Chinese. */
export function optionList(locale: string): AnswerLabels["list"] {
  const format = new Intl.ListFormat(locale, { type: "conjunction", style: "narrow" });
  return (items) => format.format(items);
}

export function useAnswerLabels(): AnswerLabels {
  const { t, i18n } = useLingui();
  return { true: t`True`, false: t`False`, list: optionList(i18n.locale) };
}

/** How many blanks a fill-in question has: its answer key's length, else the "____" runs in the stem. */
export function blankCount(question: ExamQuestion): number {
  if (Array.isArray(question.answer)) return Math.max(1, question.answer.length);
  return Math.max(1, (question.stem.match(/_{2,}/g) ?? []).length);
}

export function emptyAnswer(question: ExamQuestion): GivenAnswer {
  if (question.type === "multiple") return [];
  if (question.type === "fill") return Array.from({ length: blankCount(question) }, () => "");
  return "";
}

export function isAnswered(question: ExamQuestion, answer: GivenAnswer): boolean {
  if (Array.isArray(answer)) return question.type === "fill" ? answer.some((a) => a.trim() !== "") : answer.length > 0;
  return answer.trim() !== "";
}

/** The correct answer as text for the review ("B", "A, C" or "A、C", "True", "1949 / 一九四九"). */
export function answerText(question: ExamQuestion, answer: CorrectAnswer | undefined, labels: AnswerLabels): string {
  if (answer === undefined) return "";
  if (question.type === "judge") return answer === "T" ? labels.true : labels.false;
  if (question.type === "short" && typeof answer === "object" && !Array.isArray(answer)) return answer.reference;
  if (question.type === "fill" && Array.isArray(answer)) return answer.map((a) => a.split("|").join(" / ")).join("; ");
  return Array.isArray(answer) ? labels.list(answer) : String(answer);
}

/** A question's stem and its options, as text to read (an exam's result, the bank's question list), not to answer. */
export function QuestionStem({ question, optionsClass }: { question: Pick<ExamQuestion, "stem" | "options">; optionsClass: string }) {
  return (
    <>
      <p className="whitespace-pre-wrap">
        <QuestionText text={question.stem} />
      </p>
      {question.options.length > 0 && (
        <ul className={optionsClass}>
          {question.options.map((o) => (
            <li key={o.key}>
              <span className="font-semibold">{o.key}.</span> {o.text}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The correct answer and the analysis (when the question has one), as a practice, a review and the bank's list show them. */
export function AnswerAndAnalysis({ question, answerClass, analysisClass }: { question: ExamQuestion; answerClass?: string; analysisClass?: string }) {
  const { t } = useLingui();
  const labels = useAnswerLabels();
  return (
    <>
      <p className={answerClass}>
        <span className="font-medium">{t`Answer:`}</span> {answerText(question, question.answer, labels)}
      </p>
      {question.analysis && (
        <p className={analysisClass}>
          <span className="font-medium">{t`Analysis:`}</span> {question.analysis}
        </p>
      )}
    </>
  );
}

/** One question's stem and answer controls; native inputs, so keyboard and screen readers work. */
const OPTION = "flex min-h-12 items-center gap-3 rounded-lg border px-4 py-2 text-base";
const OPTION_OPEN = `${OPTION} cursor-pointer border-slate-200 has-[:checked]:border-primary has-[:checked]:bg-blue-50 dark:border-slate-700 dark:has-[:checked]:bg-slate-800`;
const OPTION_RIGHT = `${OPTION} border-emerald-500 bg-emerald-50 dark:bg-emerald-950/40`;
const OPTION_WRONG = `${OPTION} border-red-500 bg-red-50 dark:bg-red-950/40`;
const OPTION_PLAIN = `${OPTION} border-slate-200 dark:border-slate-700`;

/** An option's look once graded: the right ones green, a wrong choice red, the rest plain; and words for screen readers. */
function useOptionMark(marks: AnswerMarks | null | undefined) {
  const { t } = useLingui();
  return (key: string, chosen: boolean): { className: string; mark: ReactNode } => {
    if (marks?.kind !== "options") return { className: OPTION_OPEN, mark: null };
    if (marks.right.has(key.toUpperCase())) {
      return { className: OPTION_RIGHT, mark: <CheckCircle2 role="img" aria-label={chosen ? t`Your choice, right` : t`The right answer`} className="ml-auto size-5 shrink-0 text-emerald-600" /> };
    }
    if (chosen) return { className: OPTION_WRONG, mark: <XCircle role="img" aria-label={t`Your choice, wrong`} className="ml-auto size-5 shrink-0 text-red-600" /> };
    return { className: OPTION_PLAIN, mark: null };
  };
}

/**
 * One question's type, stem and answer controls; native inputs, so keyboard and screen readers
 * work. With `marks` (a graded practice answer) the right options show green and a wrong choice
 * red, and each blank of a fill-in right or wrong.
 */
export function QuestionView({
  question,
  value,
  onChange,
  disabled,
  marks,
}: {
  question: ExamQuestion;
  value: GivenAnswer;
  onChange(value: GivenAnswer): void;
  disabled: boolean;
  marks?: AnswerMarks | null;
}) {
  const { t, i18n } = useLingui();
  const name = useId();
  const optionMark = useOptionMark(marks);
  return (
    <fieldset disabled={disabled} className="space-y-3">
      <legend className="mb-3 text-lg leading-relaxed font-medium whitespace-pre-wrap">
        <span className="mr-2 inline-block rounded bg-slate-100 px-2 py-0.5 align-middle text-xs font-normal text-slate-600 dark:bg-slate-800 dark:text-slate-300">{i18n._(TYPE_LABELS[question.type])}</span>
        <QuestionText text={question.stem} />
      </legend>
      {question.type === "single" &&
        question.options.map((o) => {
          const { className, mark } = optionMark(o.key, value === o.key);
          return (
            <label key={o.key} className={className}>
              <input type="radio" name={name} className="size-5 accent-primary" checked={value === o.key} onChange={() => onChange(o.key)} />
              <span className="font-semibold">{o.key}.</span> <span className="whitespace-pre-wrap"><QuestionText text={o.text} /></span>
              {mark}
            </label>
          );
        })}
      {question.type === "multiple" &&
        question.options.map((o) => {
          const chosen = Array.isArray(value) ? value : [];
          const { className, mark } = optionMark(o.key, chosen.includes(o.key));
          return (
            <label key={o.key} className={className}>
              <input
                type="checkbox"
                className="size-5 accent-primary"
                checked={chosen.includes(o.key)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, o.key].sort() : chosen.filter((k) => k !== o.key))}
              />
              <span className="font-semibold">{o.key}.</span> <span className="whitespace-pre-wrap"><QuestionText text={o.text} /></span>
              {mark}
            </label>
          );
        })}
      {question.type === "judge" &&
        (["T", "F"] as const).map((k) => {
          const { className, mark } = optionMark(k, value === k);
          return (
            <label key={k} className={className}>
              <input type="radio" name={name} className="size-5 accent-primary" checked={value === k} onChange={() => onChange(k)} />
              {k === "T" ? t`True` : t`False`}
              {mark}
            </label>
          );
        })}
      {question.type === "fill" &&
        Array.from({ length: blankCount(question) }, (_, i) => {
          const blanks = Array.isArray(value) ? value : [];
          const n = i + 1;
          const right = marks?.kind === "blanks" ? marks.right[i] : undefined;
          const border = right === true ? "border-emerald-500 bg-emerald-50 dark:bg-emerald-950/40" : right === false ? "border-red-500 bg-red-50 dark:bg-red-950/40" : "border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-800";
          return (
            <label key={i} className="block space-y-1">
              <span className="flex items-center gap-1 text-sm text-slate-600 dark:text-slate-300">
                {t`Blank ${n}`}
                {right === true && <CheckCircle2 role="img" aria-label={t`Right`} className="size-4 text-emerald-600" />}
                {right === false && <XCircle role="img" aria-label={t`Wrong`} className="size-4 text-red-600" />}
              </span>
              <input
                aria-invalid={right === false || undefined}
                className={`block min-h-12 w-full rounded-md border px-3 text-base ${border}`}
                value={blanks[i] ?? ""}
                onChange={(e) => {
                  const next = [...blanks];
                  next[i] = e.target.value;
                  onChange(next.map((b) => b ?? ""));
                }}
              />
            </label>
          );
        })}
      {question.type === "short" && (
        <label className="block space-y-1">
          <span className="text-sm text-slate-600 dark:text-slate-300">{t`Your answer`}</span>
          <textarea
            rows={5}
            className="block w-full rounded-md border border-slate-300 bg-white p-3 text-base dark:border-slate-600 dark:bg-slate-800"
            value={typeof value === "string" ? value : ""}
            onChange={(e) => onChange(e.target.value)}
          />
        </label>
      )}
    </fieldset>
  );
}
