import { useLiveQuery } from "dexie-react-hooks";
import type { BankDownload } from "../../shared/exam/catalog.ts";
import type { BankRow, MemberDb, QuestionRow } from "./db.ts";
import { questionsWithIds, saveBank } from "./repository/index.ts";

/**
 * The favourite questions and the wrong-question book as screens list them: each entry with its
 * question when a bank on this device holds it. Read in one transaction, so an empty book is an
 * empty list at once (never "still loading" waiting on a second query).
 */
export type QuestionBookKind = "favourites" | "wrong";

export interface QuestionBookEntry {
  questionId: number;
  /** Wrong answers counted (wrong book); 0 for favourites. */
  count: number;
  /** ms: when it was marked (favourites) or last answered wrong (wrong book). */
  at: number;
  /** The question from a bank on this device, or null when none holds it. */
  question: QuestionRow | null;
  /** That bank (null with the question). */
  bank: BankRow | null;
}

export async function readQuestionBook(db: MemberDb, kind: QuestionBookKind): Promise<QuestionBookEntry[]> {
  return db.transaction("r", [db.favourites, db.wrong, db.questions, db.banks], async () => {
    const marked =
      kind === "favourites"
        ? (await db.favourites.toArray()).filter((f) => f.on).map((f) => ({ questionId: f.questionId, count: 0, at: f.at }))
        : (await db.wrong.toArray()).filter((w) => !w.removed && w.count > 0).map((w) => ({ questionId: w.questionId, count: w.count, at: w.lastTime }));
    if (marked.length === 0) return [];
    const rows = await questionsWithIds(db, marked.map((m) => m.questionId));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const bankIds = [...new Set(rows.map((r) => r.bankId))];
    const banks = new Map((await db.banks.bulkGet(bankIds)).flatMap((b) => (b ? [[b.id, b] as const] : [])));
    return marked
      .map((m) => {
        const question = byId.get(m.questionId) ?? null;
        return { ...m, question, bank: question ? (banks.get(question.bankId) ?? null) : null };
      })
      .sort((a, b) => b.at - a.at || a.questionId - b.questionId);
  });
}

/** Live: re-renders when the book, or the banks on the device, change. `undefined` only while the first read runs. */
export function useQuestionBook(db: MemberDb | undefined, kind: QuestionBookKind): QuestionBookEntry[] | undefined {
  return useLiveQuery(() => (db ? readQuestionBook(db, kind) : undefined), [db, kind]);
}

/** Stores a bank downloaded from `GET /api/exam/bank` (in `lang`) for offline use (replacing an older copy). */
export function saveDownloadedBank(db: MemberDb, download: BankDownload, lang?: string): Promise<BankRow> {
  const { bank, questions } = download;
  return saveBank(db, { id: bank.id, classifyId: bank.id, title: bank.title, version: bank.version, ...(lang ? { lang } : {}) }, questions);
}
