import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf, rowById } from "../../db/kysely.ts";
import { idIn, textById } from "../repository.ts";

const one = sql`1`.as("one");

/** Sum of score x count of each paper's rows (papers without rows are left out). */
export async function paperRowTotals(q: Queryable, paperIds: readonly number[]): Promise<{ paper_id: number; total: string }[]> {
  const rows = await kyselyOf(q)
    .selectFrom("exam_paper_row")
    .select(["paper_id", sql<string>`coalesce(sum(score * count), 0)`.as("total")])
    .where(idIn("paper_id", paperIds))
    .groupBy("paper_id")
    .execute();
  return rows;
}

/** How many attempts were made on these papers. */
export async function attemptsOnPapers(q: Queryable, paperIds: readonly unknown[]): Promise<number> {
  const row = await kyselyOf(q).selectFrom("exam_attempt").select(sql<number>`count(*)::int`.as("n")).where(idIn("paper_id", paperIds)).executeTakeFirstOrThrow();
  return row.n;
}

/** The titles of the first exam rooms (by id) that use these papers. */
export async function roomTitlesOfPapers(q: Queryable, paperIds: readonly unknown[], limit: number): Promise<string[]> {
  const rows = await kyselyOf(q).selectFrom("exam_room").select("title").where(idIn("paper_id", paperIds)).orderBy("id").limit(limit).execute();
  return rows.map((r) => r.title);
}

/** How many enabled questions of the bank have this type and, unless null, this difficulty. */
export async function enabledQuestionCount(q: Queryable, classifyId: number, type: string, difficulty: number | null): Promise<number> {
  const row = await kyselyOf(q)
    .selectFrom("exam_question")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("classify_id", "=", classifyId)
    .where("type", "=", type)
    .where(sql<boolean>`(${difficulty}::smallint is null or difficulty = ${difficulty}::smallint)`)
    .where("status", "=", "enable")
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function paperExists(q: Queryable, id: number): Promise<boolean> {
  return (await rowById(q, "exam_paper", ["id"], id)) !== undefined;
}

export async function bankExists(q: Queryable, id: number): Promise<boolean> {
  return (await rowById(q, "exam_classify", ["id"], id)) !== undefined;
}

export async function questionStatus(q: Queryable, id: number): Promise<string | undefined> {
  return (await rowById(q, "exam_question", ["status"], id))?.status;
}

/** Whether the question has had this version. */
export async function questionVersionExists(q: Queryable, questionId: number, version: number): Promise<boolean> {
  const row = await kyselyOf(q).selectFrom("exam_question_version").select(one).where("question_id", "=", questionId).where("version", "=", version).executeTakeFirst();
  return row !== undefined;
}

/** The total each of these papers promises. */
export async function paperTotalScores(q: Queryable, paperIds: readonly number[]): Promise<{ id: number; total_score: string }[]> {
  const rows = await kyselyOf(q).selectFrom("exam_paper").select(["id", "total_score"]).where(idIn("id", paperIds)).execute();
  return rows as unknown as { id: number; total_score: string }[];
}

export async function questionStemVersion(q: Queryable, id: unknown): Promise<{ stem: string; version: number } | undefined> {
  return rowById(q, "exam_question", ["stem", "version"], id as number);
}

export const bankTitle = (q: Queryable, id: unknown) => textById(q, "exam_classify", "title", id);
