import type { ReactNode } from "react";

const TERM = {
  /** The term as a label of the same weight as its value (an account's details). */
  strong: "font-medium text-slate-700 dark:text-slate-200",
  /** The term quieter than its value (a card's details). */
  muted: "text-slate-500 dark:text-slate-400",
  /** The term in secondary text beside a figure (a dialog's summary). */
  soft: "text-slate-600 dark:text-slate-300",
} as const;

/** One term and its value in a definition list (`<dl>`): `className` and `testId` are the value's. */
export function Fact({ label, tone = "strong", className, testId, children }: { label: ReactNode; tone?: keyof typeof TERM; className?: string; testId?: string; children: ReactNode }) {
  return (
    <>
      <dt className={TERM[tone]}>{label}</dt>
      <dd className={className} data-testid={testId}>
        {children}
      </dd>
    </>
  );
}
