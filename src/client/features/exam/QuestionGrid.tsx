import { useLingui } from "@lingui/react/macro";
import { Button } from "../../ui/Button.tsx";

/** A question's state in the grid: practice knows right and wrong at once, exams only answered or not. */
export type GridState = "unanswered" | "answered" | "correct" | "wrong";

const gridTone: Record<GridState, string> = {
  unanswered: "border-slate-200 dark:border-slate-700",
  answered: "border-primary bg-blue-50 font-medium text-slate-900 dark:bg-slate-800 dark:text-slate-100",
  correct: "border-emerald-300 bg-emerald-50 text-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-200",
  wrong: "border-red-300 bg-red-50 text-red-800 dark:bg-red-950/40 dark:text-red-200",
};
const gridMark: Record<GridState, string> = { unanswered: "", answered: "•", correct: "✓", wrong: "✗" };

/** The numbered grid of an attempt's or a bank's questions: each says its state and jumps to its question. */
export function QuestionGrid({ states, current, onJump }: { states: readonly GridState[]; current: number; onJump(index: number): void }) {
  const { t } = useLingui();
  const labelOf = (n: number, state: GridState) =>
    state === "wrong"
      ? t`Question ${n}, answered wrong`
      : state === "correct"
        ? t`Question ${n}, answered correctly`
        : state === "answered"
          ? t`Question ${n}, answered`
          : t`Question ${n}, not answered`;
  return (
    <nav aria-label={t`Jump to a question`} className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      <ol className="grid grid-cols-[repeat(auto-fill,minmax(2.75rem,1fr))] gap-2">
        {states.map((state, i) => {
          const n = i + 1;
          return (
            // The list is the attempt's (or bank's) fixed order: the index is the question.
            <li key={i}>
              <Button
                variant="bare"
                onClick={() => onJump(i)}
                aria-current={i === current ? "step" : undefined}
                aria-label={labelOf(n, state)}
                className={`min-h-11 w-full rounded-md border text-sm ${i === current ? "ring-2 ring-primary" : ""} ${gridTone[state]}`}
              >
                {n}
                {gridMark[state] && <span aria-hidden>{gridMark[state]}</span>}
              </Button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
