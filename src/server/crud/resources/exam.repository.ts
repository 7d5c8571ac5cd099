import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import { idIn, nowSeconds } from "../repository.ts";

/** Now, or one past `previous` when that is not earlier (a bank's update_time moves forward on every edit). */
export async function timeAfter(q: Queryable, previous: unknown): Promise<number> {
  const { rows } = await sql<{ t: string }>`select greatest(extract(epoch from now())::bigint, ${previous}::bigint + 1)::text as t`.execute(kyselyOf(q));
  return Number(rows[0]!.t);
}

/** Whether a paper draws from one of these banks or holds one of their questions. */
export async function banksUsedByPapers(q: Queryable, bankIds: readonly number[]): Promise<boolean> {
  const { rows } = await sql`
    select 1 from exam_paper_row r left join exam_question q on q.id = r.question_id
    where r.classify_id = any(${bankIds}::int[]) or q.classify_id = any(${bankIds}::int[]) limit 1`.execute(kyselyOf(q));
  return rows.length > 0;
}

/**
 * The `update_time` a question written now gets: now, or one past the newest in its bank(s), so
 * the bank's content version (modules/exam/questions.ts bankVersion: count, newest update_time,
 * id sum) changes on every edit, even two edits within one second.
 */
export async function nextQuestionTime(q: Queryable, bankIds: readonly number[]): Promise<number> {
  const { rows } = await sql<{ t: string }>`
    select greatest(extract(epoch from now())::bigint, coalesce((select max(update_time) + 1 from exam_question where classify_id = any(${bankIds}::int[])), 0))::text as t`.execute(kyselyOf(q));
  return Number(rows[0]!.t);
}

export async function bankExists(q: Queryable, id: number): Promise<boolean> {
  const row = await kyselyOf(q).selectFrom("exam_classify").select(sql`1`.as("one")).where("id", "=", id).executeTakeFirst();
  return row !== undefined;
}

/** How many papers hold each question as a fixed row (questions in none are left out). */
export async function papersPerQuestion(q: Queryable, ids: readonly number[]): Promise<{ id: number; n: number }[]> {
  const rows = await kyselyOf(q)
    .selectFrom("exam_paper_row")
    .select(["question_id as id", sql<number>`count(distinct paper_id)::int`.as("n")])
    .where("kind", "=", "fixed")
    .where(idIn("question_id", ids))
    .groupBy("question_id")
    .execute();
  return rows as { id: number; n: number }[];
}

/** How many attempts sat each question (by the attempt's own copy of its question ids). */
export async function attemptsPerQuestion(q: Queryable, ids: readonly number[]): Promise<{ id: number; n: number }[]> {
  const { rows } = await sql<{ id: number; n: number }>`
    select (e ->> 'id')::int as id, count(distinct a.id)::int as n
    from exam_attempt a, jsonb_array_elements(a.questions) e
    where (e ->> 'id')::int = any(${ids}::int[]) group by 1`.execute(kyselyOf(q));
  return rows;
}

/** Hides these questions (those not hidden yet), keeping the status a restore gives back. */
export async function hideQuestionRows(q: Queryable, ids: readonly number[], updateTime: number): Promise<void> {
  await kyselyOf(q)
    .updateTable("exam_question")
    .set({ hidden_status: sql.ref("status"), status: "hidden", hidden_at: nowSeconds, update_time: updateTime })
    .where(idIn("id", ids))
    .where("status", "<>", "hidden")
    .execute();
}

/** The banks these questions are in. */
export async function banksOfQuestions(q: Queryable, ids: readonly unknown[]): Promise<number[]> {
  const rows = await kyselyOf(q).selectFrom("exam_question").select("classify_id").distinct().where(idIn("id", ids)).execute();
  return rows.map((r) => r.classify_id);
}

export async function setQuestionsTime(q: Queryable, ids: readonly unknown[], updateTime: number): Promise<void> {
  await kyselyOf(q).updateTable("exam_question").set("update_time", updateTime).where(idIn("id", ids)).execute();
}

/** The hidden ones of these questions, locked until the transaction ends. */
export async function lockedHiddenQuestions(q: Queryable, ids: readonly number[]): Promise<{ id: number; classify_id: number }[]> {
  return kyselyOf(q).selectFrom("exam_question").select(["id", "classify_id"]).where(idIn("id", ids)).where("status", "=", "hidden").forUpdate().execute();
}

/** Hidden questions back with the status they had. */
export async function restoreQuestionRows(q: Queryable, ids: readonly number[], updateTime: number): Promise<void> {
  await kyselyOf(q)
    .updateTable("exam_question")
    .set({ status: sql<string>`coalesce(hidden_status, 'enable')`, hidden_status: null, hidden_at: null, update_time: updateTime })
    .where(idIn("id", ids))
    .execute();
}
