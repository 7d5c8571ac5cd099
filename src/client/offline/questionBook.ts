import { useLiveQuery } from "dexie-react-hooks";
import type { BankDownload } from "../../shared/exam/catalog.ts";
import type { BankRow, MemberDb, QuestionRow } from "./db.ts";
import { saveBank } from "./repository/index.ts";

/**
 * The favourite questions and the wrong-question book as screens list them. A book of thousands
 * is read in two steps, as a screen shows it a page at a time: the book itself (its marks, and
 * where each question is on this device from the questions' primary keys, no question read), then
 * only the questions of the page shown (`readBookQuestions`).
 */
export type QuestionBookKind = "favourites" | "wrong";

export interface QuestionBookEntry {
  questionId: number;
  /** Wrong answers counted (wrong book); 0 for favourites. */
  count: number;
  /** ms: when it was marked (favourites) or last answered wrong (wrong book). */
  at: number;
  /** The bank on this device holding the question (the lowest id when several do), or null when none does. */
  bankId: number | null;
}

/** A question of the book read for the screen, with its bank. */
export interface BookQuestion {
  question: QuestionRow;
  bank: BankRow | null;
}

/**
 * The book, newest first: read in one transaction, so an empty book is an empty list at once.
 * The wrong book comes from its own index (`wrongBook`), where each question is from the banks'
 * directories (`BankRow.questionIds`: a few rows, no question or index key read).
 */
export async function readQuestionBook(db: MemberDb, kind: QuestionBookKind): Promise<QuestionBookEntry[]> {
  return db.transaction("r", [db.favourites, db.wrong, db.banks], async () => {
    const marked = kind === "favourites" ? (await db.favourites.toArray()).filter((f) => f.on).map((f) => ({ questionId: f.questionId, count: 0, at: f.at })) : await wrongBook(db);
    if (marked.length === 0) return [];
    const banks = await banksOfQuestions(db, marked.map((m) => m.questionId));
    return marked.map((m) => ({ ...m, bankId: banks.get(m.questionId) ?? null })).sort((a, b) => b.at - a.at || a.questionId - b.questionId);
  });
}

/** The wrong book's entries, newest first, from its `book` index (db.ts `WrongRow.book`): its rows only, in one request. */
async function wrongBook(db: MemberDb): Promise<Omit<QuestionBookEntry, "bankId">[]> {
  return (await db.wrong.orderBy("book").toArray()).map((w) => ({ questionId: w.questionId, count: w.count, at: w.lastTime }));
}

/**
 * The bank on this device holding each of `ids` (the lowest bank id when several do), from the
 * banks' directories, in bank id order: no question is read.
 */
export async function banksOfQuestions(db: MemberDb, ids: readonly number[]): Promise<Map<number, number>> {
  const wanted = new Set(ids);
  const banks = new Map<number, number>();
  if (wanted.size === 0) return banks;
  for (const bank of await db.banks.toArray()) {
    for (const id of bank.questionIds) if (wanted.has(id) && !banks.has(id)) banks.set(id, bank.id);
  }
  return banks;
}

/** The questions of these entries (those on this device), with their banks, by question id: a page of the book. */
export async function readBookQuestions(db: MemberDb, entries: readonly Pick<QuestionBookEntry, "questionId" | "bankId">[]): Promise<Map<number, BookQuestion>> {
  const keys = entries.flatMap((e) => (e.bankId === null ? [] : [[e.bankId, e.questionId] as [number, number]]));
  if (keys.length === 0) return new Map();
  return db.transaction("r", [db.questions, db.banks], async () => {
    const rows = (await db.questions.bulkGet(keys)).filter((row): row is QuestionRow => row !== undefined);
    const banks = new Map((await db.banks.bulkGet([...new Set(rows.map((r) => r.bankId))])).flatMap((b) => (b ? [[b.id, b] as const] : [])));
    return new Map(rows.map((question) => [question.id, { question, bank: banks.get(question.bankId) ?? null }]));
  });
}

/** Live: re-renders when the book, or the questions on the device, change. `undefined` only while the first read runs. */
export function useQuestionBook(db: MemberDb | undefined, kind: QuestionBookKind): QuestionBookEntry[] | undefined {
  return useLiveQuery(() => (db ? readQuestionBook(db, kind) : undefined), [db, kind]);
}

/** Live: the questions of a page of the book (`entries`), by question id. `undefined` while they are read. */
export function useBookQuestions(
  db: MemberDb | undefined,
  entries: readonly Pick<QuestionBookEntry, "questionId" | "bankId">[] | undefined,
): Map<number, BookQuestion> | undefined {
  const key = entries?.map((e) => `${e.bankId}:${e.questionId}`).join(",");
  // `key` stands for `entries` (a new array each render).
  return useLiveQuery(() => (db && entries ? readBookQuestions(db, entries) : undefined), [db, key]);
}

/** Stores a bank downloaded from `GET /api/exam/bank` (in `lang`) for offline use (replacing an older copy). */
export function saveDownloadedBank(db: MemberDb, download: BankDownload, lang?: string): Promise<BankRow> {
  const { bank, questions } = download;
  return saveBank(db, { id: bank.id, classifyId: bank.id, title: bank.title, version: bank.version, ...(lang ? { lang } : {}) }, questions);
}
