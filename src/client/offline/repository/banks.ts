import type { ExamQuestion } from "../../../shared/exam/types.ts";
import type { BankRow, MemberDb, QuestionRow } from "../db.ts";
import { clockOf, inSlices, type RepoOptions } from "./shared.ts";

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

/** Questions written per request when a bank is saved. */
const SAVE_SLICE = 250;

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
    questionIds: questions.map((q) => q.id),
    questionTypes: questions.map((q) => q.type),
  };
  await db.transaction("rw", [db.banks, db.questions], async () => {
    // The titles seen in other languages are kept (a new version of the content keeps its name).
    const before = await db.banks.get(bank.id);
    const titles = { ...before?.titles, ...(bank.lang ? { [bank.lang]: bank.title } : {}) };
    if (Object.keys(titles).length > 0) row.titles = titles;
    await db.questions.where("bankId").equals(bank.id).delete();
    // In slices, each waited for: the page runs its other tasks between them (a 5,000-question
    // bank in one bulkAdd was a task of a quarter second on this machine), and the transaction
    // stays one, so a reader never sees half a bank. Each slice's rows are made as it is written.
    await inSlices(questions, (slice, from) => db.questions.bulkAdd(slice.map((q, i): QuestionRow => ({ ...q, bankId: bank.id, position: from + i }))), SAVE_SLICE);
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

/** Below this many ids a cursor over the `id` index that jumps to each is the quicker read. */
export const FEW_IDS = 100;

/**
 * The saved questions with these ids, one row per id (the lowest bank id's), or only those of
 * `bankId`. Many ids (a wrong book of thousands) are found in the banks' directories
 * (`BankRow.questionIds`), then only the rows wanted are read, asked for together; a cursor
 * jumping to each id waited on one request per id (10,000 ids over 40,000 questions: seconds).
 */
export async function questionsWithIds(db: MemberDb, ids: Iterable<number>, bankId?: number): Promise<QuestionRow[]> {
  const wanted = new Set(ids);
  if (wanted.size === 0) return [];
  if (wanted.size < FEW_IDS) {
    const rows = await db.questions.where("id").anyOf([...wanted]).toArray();
    const first = new Map<number, QuestionRow>();
    for (const row of rows) if (!first.has(row.id) && (bankId === undefined || row.bankId === bankId)) first.set(row.id, row);
    return [...first.values()];
  }
  // Where each is, from the banks' directories (the lowest bank id first: a question in two banks
  // is the lowest's), no question or index key read.
  const banks = bankId === undefined ? await db.banks.toArray() : [await db.banks.get(bankId)].filter((bank) => bank !== undefined);
  const picked = new Set<number>();
  const perBank = new Map<number, { size: number; keys: [number, number][] }>();
  for (const bank of banks) {
    const keys: [number, number][] = [];
    for (const id of bank.questionIds) {
      if (wanted.has(id) && !picked.has(id)) {
        picked.add(id);
        keys.push([bank.id, id]);
      }
    }
    perBank.set(bank.id, { size: bank.questionIds.length, keys });
  }
  // A bank with many of them is read whole (one request); a few of a bank one by one (a request
  // each: 10,000 of those held the page for seconds).
  const reads = [...perBank].map(async ([bank, { size, keys: wantedKeys }]) => {
    if (wantedKeys.length === 0) return [];
    if (wantedKeys.length * WHOLE_BANK_RATIO < size && wantedKeys.length < FEW_IDS) {
      return (await db.questions.bulkGet(wantedKeys)).filter((row): row is QuestionRow => row !== undefined);
    }
    const ids = new Set(wantedKeys.map((key) => key[1]));
    return (await db.questions.where("[bankId+id]").between([bank, -Infinity], [bank, Infinity]).toArray()).filter((row) => ids.has(row.id));
  });
  return (await Promise.all(reads)).flat();
}

/** A bank is read whole when at least one of this many of its questions is wanted. */
const WHOLE_BANK_RATIO = 8;

/**
 * The rows of `keys` in a table (missing ones left out): one by one when they are few, else the
 * whole table in one request, kept where wanted.
 */
export async function rowsWithKeys<T, K extends number | string>(
  table: { bulkGet(keys: K[]): Promise<(T | undefined)[]>; toArray(): Promise<T[]> },
  keys: readonly K[],
  keyOf: (row: T) => K,
): Promise<T[]> {
  if (keys.length < FEW_IDS) return (await table.bulkGet([...keys])).filter((row): row is T => row !== undefined);
  const wanted = new Set(keys);
  return (await table.toArray()).filter((row) => wanted.has(keyOf(row)));
}

/**
 * The bank (the lowest id when several hold it) and type of every question on this device, by
 * question id, from the banks' directories (`BankRow.questionIds`): no question is read.
 */
export async function questionKinds(db: MemberDb): Promise<Map<number, { bankId: number; type: string }>> {
  return kindsOf(await db.banks.toArray());
}

/** `questionKinds` of these bank rows (in id order, as the table holds them: the first bank holding a question is the lowest). */
export function kindsOf(banks: readonly Pick<BankRow, "id" | "questionIds" | "questionTypes">[]): Map<number, { bankId: number; type: string }> {
  const kinds = new Map<number, { bankId: number; type: string }>();
  for (const bank of banks) {
    bank.questionIds.forEach((id, i) => {
      if (!kinds.has(id)) kinds.set(id, { bankId: bank.id, type: bank.questionTypes[i] ?? "" });
    });
  }
  return kinds;
}
