import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import type { AttemptRow } from "../../modules/exam/attempts/attempt.ts";
import { idIn } from "../repository.ts";

export interface ResultsRoom {
  id: number;
  title: string;
  paper_id: number;
  pass_score: string;
  paper_title: string;
  total_score: string;
  partial_credit: boolean;
}

/** The room with its paper's title, total and partial-credit rule, if it exists. */
export async function resultsRoom(q: Queryable, roomId: number): Promise<ResultsRoom | undefined> {
  const { rows } = await sql<ResultsRoom>`
    select r.id, r.title, r.paper_id, r.pass_score, p.title as paper_title, p.total_score, p.partial_credit
    from exam_room r join exam_paper p on p.id = r.paper_id where r.id = ${roomId}`.execute(kyselyOf(q));
  return rows[0];
}

export type ResultsAttempt = Pick<AttemptRow, "id" | "user_id" | "score" | "passed" | "status" | "started_at" | "submitted_at" | "answers"> & { username: string; nickname: string };

/** The room's official attempts with their members, in the order they started, at most `limit` (what the results read of each). */
export async function officialAttemptsOfRoom(q: Queryable, roomId: number, limit: number): Promise<ResultsAttempt[]> {
  const { rows } = await sql<ResultsAttempt>`
    select a.id, a.user_id, a.score, a.passed, a.status, a.started_at, a.submitted_at, a.answers, m.username, m.nickname
    from exam_attempt a join member m on m.id = a.user_id
    where a.room_id = ${roomId} and a.kind = 'official' order by a.started_at, a.id limit ${limit}`.execute(kyselyOf(q));
  return rows;
}

/** The marks of these attempts' answers (marked or waiting). */
export async function marksOfAttempts(q: Queryable, attemptIds: readonly number[]): Promise<{ attempt_id: number; question_id: number; score: string | null; status: string }[]> {
  const rows = await kyselyOf(q).selectFrom("exam_mark").select(["attempt_id", "question_id", "score", "status"]).where(idIn("attempt_id", attemptIds)).execute();
  return rows as unknown as { attempt_id: number; question_id: number; score: string | null; status: string }[];
}
