import type { ExamQuestion } from "../../../shared/exam/types.ts";
import type { BankRow, MemberDb, QuestionRow } from "../db.ts";
import { clockOf, type RepoOptions } from "./shared.ts";

/** Question banks downloaded for offline practice: stored whole, read by screens by name. */

export type BankInput = Pick<BankRow, "id" | "classifyId" | "title" | "version"> & {
  /** The language `title` is in (the one the bank was downloaded in). */
  lang?: string;
};

/** The bank's title in `lang` when the device has it, else the one it was last downloaded with. */
export function localBankTitle(bank: Pick<BankRow, "title" | "titles">, lang: string): string {
  return bank.titles?.[lang] || bank.title;
}

/**
 * Remembers the bank's title in `lang` (a download in that language that found the content
 * unchanged): the questions stay as they are.
 */
export async function rememberBankTitle(db: MemberDb, bankId: number, lang: string, title: string): Promise<void> {
  await db.transaction("rw", db.banks, async () => {
    const row = await db.banks.get(bankId);
    if (!row || (row.title === title && row.titles?.[lang] === title)) return;
    await db.banks.update(bankId, { title, titles: { ...row.titles, [lang]: title } });
  });
}

/** Stores a downloaded bank and its questions in order, replacing an older copy (no op). */
export async function saveBank(
  db: MemberDb,
  bank: BankInput,
  questions: readonly ExamQuestion[],
  opts?: RepoOptions,
): Promise<BankRow> {
  const row: BankRow = {
    id: bank.id,
    classifyId: bank.classifyId,
    title: bank.title,
    version: bank.version,
    questionCount: questions.length,
    downloadedAt: clockOf(opts)(),
  };
  const rows: QuestionRow[] = questions.map((q, position) => ({ ...q, bankId: bank.id, position }));
  await db.transaction("rw", [db.banks, db.questions], async () => {
    // The titles seen in other languages are kept (a new version of the content keeps its name).
    const before = await db.banks.get(bank.id);
    const titles = { ...before?.titles, ...(bank.lang ? { [bank.lang]: bank.title } : {}) };
    if (Object.keys(titles).length > 0) row.titles = titles;
    await db.questions.where("bankId").equals(bank.id).delete();
    await db.questions.bulkAdd(rows);
    await db.banks.put(row);
  });
  return row;
}

/** The bank's row on this device, if it was saved. */
export async function storedBank(db: MemberDb, bankId: number): Promise<BankRow | undefined> {
  return db.banks.get(bankId);
}

/** The banks of `bankIds` on this device (undefined where missing), in the same order. */
export async function storedBanks(db: MemberDb, bankIds: readonly number[]): Promise<(BankRow | undefined)[]> {
  return db.banks.bulkGet([...bankIds]);
}

/** The saved questions of these banks, by bank and then position. */
export async function questionsOfBanks(db: MemberDb, bankIds: readonly number[]): Promise<QuestionRow[]> {
  const rows = await db.questions.where("bankId").anyOf([...bankIds]).toArray();
  return rows.sort((a, b) => a.bankId - b.bankId || a.position - b.position);
}
