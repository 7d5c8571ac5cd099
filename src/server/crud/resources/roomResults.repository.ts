import { sql } from "kysely";
import type { PageLeaveSummary } from "../../../shared/exam/pageLeaves.ts";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import type { AttemptRow } from "../../modules/exam/attempts/attempt.ts";

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

export type ResultsAttempt = Pick<AttemptRow, "id" | "user_id" | "score" | "passed" | "status" | "started_at" | "submitted_at"> & {
  username: string;
  nickname: string;
  /** Its kept per-question outcomes (migration 0059): the questions graded and those right; null while open or when graded before they were kept. */
  outcomes: { graded: number[]; right: number[] } | null;
};

/** The room's first `limit` official attempts in the order they started (what the results read). */
const firstAttempts = (roomId: number, limit: number) => sql`from exam_attempt where room_id = ${roomId} and kind = 'official' order by started_at, id limit ${limit}`;

/** An int[] as PostgreSQL writes it (`{1,2,3}`). */
const intArray = (text: string): number[] => JSON.parse(`[${text.slice(1, -1)}]`) as number[];

type AttemptTuple = [number, number, number | null, boolean | null, ResultsAttempt["status"], number, number | null, string, string | null, string | null, string | null];

/**
 * The room's official attempts with their members, in the order they started, at most `limit`:
 * what the results show of each and its kept outcomes, not its answers. One row of JSON text (a
 * tuple per attempt): the embedded database's row-by-row reading was most of this statement's
 * time at 20,000 attempts. Each member is found by its key in start order (`offset 0` keeps the
 * planner from merge-joining all members, which sorted the attempts twice more on disk).
 */
export async function officialAttemptsOfRoom(q: Queryable, roomId: number, limit: number): Promise<ResultsAttempt[]> {
  const { rows } = await sql<{ list: string }>`
    select coalesce(json_agg(json_build_array(a.id, a.user_id, a.score, a.passed, a.status, a.started_at, a.submitted_at, m.username, m.nickname,
      a.graded_questions::text, a.right_questions::text) order by a.started_at, a.id), '[]')::text as list
    from (select id, user_id, score, passed, status, started_at, submitted_at, graded_questions, right_questions ${firstAttempts(roomId, limit)}) a
    cross join lateral (select m.username, m.nickname from member m where m.id = a.user_id offset 0) m`.execute(kyselyOf(q));
  return (JSON.parse(rows[0]!.list) as AttemptTuple[]).map(([id, user_id, score, passed, status, started_at, submitted_at, username, nickname, graded, right]) => ({
    id,
    user_id,
    score,
    passed,
    status,
    started_at,
    submitted_at,
    username,
    nickname: nickname ?? "",
    outcomes: status === "open" || graded === null ? null : { graded: intArray(graded), right: intArray(right ?? "{}") },
  }));
}

/** Attempt id -> its answers waiting for a marker, over the room's official attempts (attempts with none: absent). */
export async function pendingMarksOfRoom(q: Queryable, roomId: number): Promise<Map<number, number>> {
  const { rows } = await sql<{ attempt_id: number; n: number }>`
    select k.attempt_id, count(*)::int as n from exam_mark k join exam_attempt a on a.id = k.attempt_id
    where a.room_id = ${roomId} and a.kind = 'official' and k.status <> 'marked' group by k.attempt_id`.execute(kyselyOf(q));
  return new Map(rows.map((r) => [r.attempt_id, r.n]));
}

/** Attempt id -> how many times and how long (ms) its member left the exam page, over the room's official attempts (attempts without leaves: absent). */
export async function leavesOfRoom(q: Queryable, roomId: number): Promise<Map<number, PageLeaveSummary>> {
  const { rows } = await sql<{ attempt_id: number; count: number; total_ms: number }>`
    select l.attempt_id, count(*)::int as count, sum(l.back_at - l.left_at)::bigint as total_ms
    from exam_attempt_leave l join exam_attempt a on a.id = l.attempt_id
    where a.room_id = ${roomId} and a.kind = 'official' group by l.attempt_id`.execute(kyselyOf(q));
  return new Map(rows.map((r) => [r.attempt_id, { count: r.count, totalMs: Number(r.total_ms) }]));
}
