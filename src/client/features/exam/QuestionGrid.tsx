import { useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { ChevronLeft, ChevronRight } from "lucide-react";
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

/**
 * Questions shown in the grid at a time: a bank of 2,000 drawn whole was 2,000 buttons on a
 * phone's first screen; a longer list shows the hundred around the current question, with
 * buttons to the hundreds before and after.
 */
export const GRID_PAGE = 100;

/** The numbered grid of an attempt's or a bank's questions: each says its state and jumps to its question. */
export function QuestionGrid({ states, current, onJump }: { states: readonly GridState[]; current: number; onJump(index: number): void }) {
  const { t } = useLingui();
  // The hundred the member paged to, while the current question is the one it was chosen at.
  const [browsed, setBrowsed] = useState<{ at: number; page: number } | null>(null);
  const pages = Math.ceil(states.length / GRID_PAGE);
  const page = Math.min(browsed?.at === current ? browsed.page : Math.floor(current / GRID_PAGE), Math.max(0, pages - 1));
  const first = page * GRID_PAGE;
  const shown = states.slice(first, first + GRID_PAGE);
  const labelOf = (n: number, state: GridState) =>
    state === "wrong"
      ? t`Question ${n}, answered wrong`
      : state === "correct"
        ? t`Question ${n}, answered correctly`
        : state === "answered"
          ? t`Question ${n}, answered`
          : t`Question ${n}, not answered`;
  const from = first + 1;
  const to = first + shown.length;
  const total = states.length;
  return (
    <nav aria-label={t`Jump to a question`} className="space-y-2 rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      {pages > 1 && (
        <div className="flex items-center justify-between gap-2 text-sm">
          <Button size="icon" variant="ghost" aria-label={t`Previous ${GRID_PAGE} questions`} disabled={page === 0} onClick={() => setBrowsed({ at: current, page: page - 1 })}>
            <ChevronLeft aria-hidden className="size-4" />
          </Button>
          <span className="tabular-nums text-slate-600 dark:text-slate-300">{t`Questions ${from}–${to} of ${total}`}</span>
          <Button size="icon" variant="ghost" aria-label={t`Next ${GRID_PAGE} questions`} disabled={page >= pages - 1} onClick={() => setBrowsed({ at: current, page: page + 1 })}>
            <ChevronRight aria-hidden className="size-4" />
          </Button>
        </div>
      )}
      <ol className="grid grid-cols-[repeat(auto-fill,minmax(2.75rem,1fr))] gap-2" start={from}>
        {shown.map((state, k) => {
          const i = first + k;
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
