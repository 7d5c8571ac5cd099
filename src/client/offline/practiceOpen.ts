import { Dexie } from "dexie";
import type { AnswerRow, BankRow, FavouriteRow, MemberDb, ProgressRow, QuestionRow } from "./db.ts";

/**
 * What the practice page reads of the device to show a bank's question (hooks.ts reads it live
 * through these), and the same read made once as a signed-in member's page starts on that page,
 * before the screen is there: an offline reload then draws the question in the screen's first
 * render instead of after three live queries, each waiting for the render before it.
 */

/** A bank and the ids of its questions in bank order (the bank row's directory, no question read). */
export interface PracticeBank {
  bank: BankRow | null;
  /** The bank's question ids, in bank order. */
  ids: number[];
}

/** What the member did in a bank on this device: the position, the latest answer per question and the favourites. */
export interface PracticeState {
  progress: ProgressRow | null;
  answers: Map<number, AnswerRow>;
  favourites: FavouriteRow[];
}

/** Questions of one bank read for a screen, by id, with the ids they were read for. */
export interface BankQuestions {
  /** The bank and ids asked for (`bankQuestionsKey`). */
  key: string;
  rows: Map<number, QuestionRow>;
}

/** Questions read at a time around the one shown (a bank of thousands is never read whole). */
export const PRACTICE_WINDOW = 20;

/**
 * The ids read around the question at `current` of `practised`: its window of PRACTICE_WINDOW,
 * with one neighbour beyond each end (so "next" and "previous" show a question already read
 * while the next window is read).
 */
export function practiceWindow(practised: readonly number[], current: number): number[] {
  const start = Math.floor(current / PRACTICE_WINDOW) * PRACTICE_WINDOW;
  return practised.slice(Math.max(0, start - 1), start + PRACTICE_WINDOW + 1);
}

/** The question a bank opens on (outside a set): the saved position, within the bank. */
export function openingIndex(total: number, progress: ProgressRow | null | undefined): number {
  return Math.max(0, Math.min(progress?.position ?? 0, total - 1));
}

export function bankQuestionsKey(bankId: number, ids: readonly number[]): string {
  return `${bankId}:${ids.join(",")}`;
}

export async function readPracticeBank(db: MemberDb, bankId: number): Promise<PracticeBank> {
  const bank = (await db.banks.get(bankId)) ?? null;
  return { bank, ids: bank?.questionIds ?? [] };
}

/** The latest local answer per question of a bank. */
export async function latestAnswers(db: MemberDb, bankId: number): Promise<Map<number, AnswerRow>> {
  const rows = await db.answers.where("bankId").equals(bankId).toArray();
  const latest = new Map<number, AnswerRow>();
  for (const row of rows) {
    const seen = latest.get(row.questionId);
    if (!seen || seen.at <= row.at) latest.set(row.questionId, row);
  }
  return latest;
}

async function onFavourites(db: MemberDb): Promise<FavouriteRow[]> {
  return (await db.favourites.toArray()).filter((f) => f.on);
}

/** Read together (one transaction). */
export function readPracticeState(db: MemberDb, bankId: number): Promise<PracticeState> {
  return db.transaction("r", [db.progress, db.answers, db.favourites], async () => {
    const [progress, answers, favourites] = await Promise.all([db.progress.get(bankId), latestAnswers(db, bankId), onFavourites(db)]);
    return { progress: progress ?? null, answers, favourites };
  });
}

export async function readBankQuestions(db: MemberDb, bankId: number, ids: readonly number[]): Promise<BankQuestions> {
  const rows = await db.questions.bulkGet(ids.map((id): [number, number] => [bankId, id]));
  return { key: bankQuestionsKey(bankId, ids), rows: new Map(rows.flatMap((row) => (row ? [[row.id, row] as const] : []))) };
}

/** The practice page's three reads for a bank opened on its saved position, in one transaction. */
export interface PracticeOpening {
  bank: PracticeBank;
  state: PracticeState;
  questions: BankQuestions;
}

export function readPracticeOpening(db: MemberDb, bankId: number): Promise<PracticeOpening> {
  return db.transaction("r", [db.banks, db.progress, db.answers, db.favourites, db.questions], async () => {
    const [bank, state] = await Promise.all([readPracticeBank(db, bankId), readPracticeState(db, bankId)]);
    const questions = await readBankQuestions(db, bankId, practiceWindow(bank.ids, openingIndex(bank.ids.length, state.progress)));
    return { bank, state, questions };
  });
}

/** The opening read as the page started, while nothing has been written to its database since. */
let opened: { db: MemberDb; bankId: number; opening: PracticeOpening } | null = null;
let watching = false;

function forgetOnWrite(): void {
  if (watching) return;
  watching = true;
  // Any write to the database (this page's, or another tab's that Dexie relays) may change what
  // was read: from then on the screen's live queries alone say what is there.
  Dexie.on("storagemutated", () => {
    opened = null;
  });
}

/**
 * Reads the practice page's opening of `bankId` now (the page starts there), for the screen's
 * first render (`practiceOpening`). Never rejects: a failed read leaves the screen to its live
 * queries, as without it.
 */
export async function readOpeningAhead(db: MemberDb, bankId: number): Promise<void> {
  forgetOnWrite();
  opened = null;
  try {
    const opening = await readPracticeOpening(db, bankId);
    opened = { db, bankId, opening };
  } catch {
    // The live queries read it again and report what fails.
  }
}

/** The opening read ahead for this database and bank, if nothing was written since. */
export function practiceOpening(db: MemberDb | undefined, bankId: number): PracticeOpening | undefined {
  return opened && opened.db === db && opened.bankId === bankId ? opened.opening : undefined;
}

/** Forgets the opening (the database closes). */
export function forgetPracticeOpening(): void {
  opened = null;
}
