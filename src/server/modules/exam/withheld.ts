import type { Queryable } from "../../db/index.ts";
import { bankWithholdingRows, paperWithholdingRows, withheldRows } from "./repository.ts";

/**
 * Exam-only content (docs/architecture.md, "Exam-only questions"): the view
 * `exam_withheld_question` (migration 0008) lists every question whose answer and analysis no
 * member may get — the questions of exam-only banks, and every question a paper of an official
 * room that has not ended can contain.
 * Every endpoint that sends answers asks here first.
 */

/** Question id -> the rooms that withhold it (`null`: an exam-only bank). Only for `ids` when given. */
export async function withheldQuestions(db: Queryable, ids?: readonly number[]): Promise<Map<number, (number | null)[]>> {
  if (ids && ids.length === 0) return new Map();
  const rows = await withheldRows(db, ids);
  const out = new Map<number, (number | null)[]>();
  for (const r of rows) out.set(r.question_id, [...(out.get(r.question_id) ?? []), r.room_id]);
  return out;
}

// Whether a question or a paper is withheld now, and the paper condition as an SQL piece: their
// statements are repository.ts's; the endpoints keep asking here.
export { isPaperWithheld, isWithheld, paperWithheld } from "./repository.ts";

/** Why a paper is or is not a mock paper now, as the papers screen says it. */
export interface PaperWithholding {
  /** Offered to members as a mock paper. */
  mock: boolean;
  /** Official rooms that keep it until they close (soonest first; at most 3). */
  rooms: { title: string; until: number }[];
  /** It holds or draws exam-only questions. */
  examOnly: boolean;
}

/** For each paper, whether members may take it as a mock paper, and why not. */
export async function papersWithholding(db: Queryable, paperIds: readonly number[]): Promise<Map<number, PaperWithholding>> {
  const out = new Map<number, PaperWithholding>();
  if (paperIds.length === 0) return out;
  const rows = await paperWithholdingRows(db, paperIds);
  for (const r of rows) out.set(r.id, { mock: !r.withheld, examOnly: r.exam_only, rooms: (r.rooms ?? []).map((x) => ({ title: x.title, until: Number(x.until) })) });
  return out;
}

/** For each practice bank, how many of its questions exams keep out of practice now, and until when (the last room's close). */
export async function banksWithholding(db: Queryable, bankIds: readonly number[]): Promise<Map<number, { count: number; until: number }>> {
  if (bankIds.length === 0) return new Map();
  const rows = await bankWithholdingRows(db, bankIds);
  return new Map(rows.map((r) => [r.classify_id, { count: r.n, until: Number(r.until) }]));
}
