import { useId } from "react";
import { useLingui } from "@lingui/react/macro";
import type { CorrectAnswer, ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import { QuestionText } from "./QuestionText.tsx";

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

/** The correct answer as text for the review ("B", "A, C", "True", "1949 / 一九四九"). */
export function answerText(question: ExamQuestion, answer: CorrectAnswer | undefined, labels: { true: string; false: string }): string {
  if (answer === undefined) return "";
  if (question.type === "judge") return answer === "T" ? labels.true : labels.false;
  if (question.type === "short" && typeof answer === "object" && !Array.isArray(answer)) return answer.reference;
  if (question.type === "fill" && Array.isArray(answer)) return answer.map((a) => a.split("|").join(" / ")).join("; ");
  return Array.isArray(answer) ? answer.join(", ") : String(answer);
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
  return (
    <>
      <p className={answerClass}>
        <span className="font-medium">{t`Answer:`}</span> {answerText(question, question.answer, { true: t`True`, false: t`False` })}
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
export function QuestionView({
  question,
  value,
  onChange,
  disabled,
}: {
  question: ExamQuestion;
  value: GivenAnswer;
  onChange(value: GivenAnswer): void;
  disabled: boolean;
}) {
  const { t } = useLingui();
  const name = useId();
  const optionClass = "flex min-h-12 cursor-pointer items-center gap-3 rounded-lg border border-slate-200 px-4 py-2 text-base has-[:checked]:border-primary has-[:checked]:bg-blue-50 dark:border-slate-700 dark:has-[:checked]:bg-slate-800";
  return (
    <fieldset disabled={disabled} className="space-y-3">
      <legend className="mb-3 text-lg leading-relaxed font-medium whitespace-pre-wrap">
        <QuestionText text={question.stem} />
      </legend>
      {question.type === "single" &&
        question.options.map((o) => (
          <label key={o.key} className={optionClass}>
            <input type="radio" name={name} className="size-5 accent-primary" checked={value === o.key} onChange={() => onChange(o.key)} />
            <span className="font-semibold">{o.key}.</span> <span className="whitespace-pre-wrap"><QuestionText text={o.text} /></span>
          </label>
        ))}
      {question.type === "multiple" &&
        question.options.map((o) => {
          const chosen = Array.isArray(value) ? value : [];
          return (
            <label key={o.key} className={optionClass}>
              <input
                type="checkbox"
                className="size-5 accent-primary"
                checked={chosen.includes(o.key)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, o.key].sort() : chosen.filter((k) => k !== o.key))}
              />
              <span className="font-semibold">{o.key}.</span> <span className="whitespace-pre-wrap"><QuestionText text={o.text} /></span>
            </label>
          );
        })}
      {question.type === "judge" &&
        (["T", "F"] as const).map((k) => (
          <label key={k} className={optionClass}>
            <input type="radio" name={name} className="size-5 accent-primary" checked={value === k} onChange={() => onChange(k)} />
            {k === "T" ? t`True` : t`False`}
          </label>
        ))}
      {question.type === "fill" &&
        Array.from({ length: blankCount(question) }, (_, i) => {
          const blanks = Array.isArray(value) ? value : [];
          const n = i + 1;
          return (
            <label key={i} className="block space-y-1">
              <span className="text-sm text-slate-600 dark:text-slate-300">{t`Blank ${n}`}</span>
              <input
                className="block min-h-12 w-full rounded-md border border-slate-300 bg-white px-3 text-base dark:border-slate-600 dark:bg-slate-800"
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
