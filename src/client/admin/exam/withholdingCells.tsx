import { i18n } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { createElement } from "react";
import { formatTime } from "../../../shared/time.ts";
import type { CrudRow } from "../crud/types.ts";

/**
 * What exams keep from practice, on the papers and banks screens (the rooms screen:
 * RoomWithholding.tsx): whether a paper is offered as a mock paper now and if not why, and how
 * many of a practice bank's questions official rooms keep out of practice, until when.
 */

interface PaperWithholding {
  mock: boolean;
  rooms: { title: string; until: number }[];
  examOnly: boolean;
}

const note = (text: string, warn: boolean) =>
  createElement("span", { className: warn ? "text-amber-800 dark:text-amber-300" : "text-slate-600 dark:text-slate-300" }, text);

/** The papers list's "Mock paper" cell. */
export function paperMockCell(row: CrudRow) {
  const w = row.withholding as PaperWithholding | null | undefined;
  if (!w) return "–";
  if (w.mock) return note(i18n._(msg`Offered as a mock paper`), false);
  const first = w.rooms[0];
  if (first) {
    const room = first.title;
    const until = formatTime(first.until);
    const more = w.rooms.length - 1;
    return note(
      more > 0 ? i18n._(msg`Kept for the exam “${room}” (and ${more} more) until ${until}: not a mock paper until then`) : i18n._(msg`Kept for the exam “${room}” until ${until}: not a mock paper until then`),
      true,
    );
  }
  if (w.examOnly) return note(i18n._(msg`Holds exam-only questions: never a mock paper`), false);
  return note(i18n._(msg`Shares questions an exam keeps: not a mock paper until that exam closes`), true);
}

/** The banks list's "Kept from practice" cell. */
export function bankWithheldCell(row: CrudRow) {
  const w = row.withheld as { count: number; until: number } | null | undefined;
  if (row.kind !== "practice" || !w || w.count === 0) return "–";
  const until = formatTime(w.until);
  return note(i18n._(msg`${plural(w.count, { one: "# question", other: "# questions" })} kept out of practice by exams until ${until}`), true);
}
