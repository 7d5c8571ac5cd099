import type { I18n } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import type { PageLeave } from "../../../shared/exam/pageLeaves.ts";

/**
 * How a marker sees the member's page leaves during an official attempt
 * (src/shared/exam/pageLeaves.ts): "Left the page 3 times, 2 min 10 s in all", and in the mark
 * dialog each leave with its times.
 */

/** "45 s", "2 min 10 s", "1 h 5 min". */
export function awayText(i18n: I18n, ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const min = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return i18n._(msg`${h} h ${min} min`);
  if (min > 0) return i18n._(msg`${min} min ${s} s`);
  return i18n._(msg`${s} s`);
}

/** One line: how many times and how long in all the member left the exam page. */
export function PageLeaveSummary({ count, totalMs }: { count: number; totalMs: number }) {
  const { t, i18n } = useLingui();
  if (count === 0) return <span className="text-slate-600 dark:text-slate-300">{t`Did not leave the page`}</span>;
  const away = awayText(i18n, totalMs);
  return <span className="text-amber-800 dark:text-amber-300">{t`Left the page ${plural(count, { one: "once", other: "# times" })}, ${away} in all`}</span>;
}

/** Each leave: when it left, when it came back, how long (times on the server's clock). */
export function PageLeaveList({ leaves }: { leaves: readonly PageLeave[] }) {
  const { t, i18n } = useLingui();
  const time = (ms: number) => i18n.date(new Date(ms), { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  return (
    <ol className="max-h-40 list-decimal space-y-0.5 overflow-y-auto ps-6 text-xs tabular-nums" data-testid="page-leave-list">
      {leaves.map((l) => {
        const from = time(l.leftAt);
        const to = time(l.backAt);
        const away = awayText(i18n, l.backAt - l.leftAt);
        return <li key={l.leftAt}>{t`${from} to ${to} (${away})`}</li>;
      })}
    </ol>
  );
}

/** The page leaves of a row that carries them (`page_leaves`, `page_leave_ms`: marking queue). */
export function pageLeavesOf(row: Record<string, unknown>): { count: number; totalMs: number } {
  return { count: Number(row.page_leaves ?? 0), totalMs: Number(row.page_leave_ms ?? 0) };
}
