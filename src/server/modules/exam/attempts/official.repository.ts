import { SUBMIT_GRACE_SECONDS } from "../../../../shared/exam/official.ts";
import { sql } from "kysely";
import { prepared, type Queryable } from "../../../db/index.ts";
import { kyselyOf } from "../../../db/kysely.ts";
import { visibleTo } from "../../org/visibility.ts";
import { memberExtras } from "../overrides.ts";
import type { MemberRoomTerms } from "../repository.ts";
import type { AttemptRow } from "./attempt.ts";

/**
 * The statements of official exams (official.ts): the start, the in-time save and submission,
 * the answer op. These are the product's hottest paths (every taker starts, then saves every few
 * seconds), so each statement is the one the path always ran, as plain parameterised text: the
 * save's merge stays a prepared statement, and none of them adds a round trip.
 */

/** A room as a start reads it. */
export interface RoomRow extends MemberRoomTerms {
  user_group_id: number | null;
  shuffle_questions: boolean;
}

/** The enabled room open to the member (org visibility), with the member's overrides in it, or undefined. */
export async function visibleRoom(q: Queryable, roomId: number, memberId: number, groupId: number | null): Promise<RoomRow | undefined> {
  const room = sql.ref<number>("r.id");
  const { rows } = await sql<RoomRow>`select r.*, ${memberExtras(room, memberId, groupId)} from exam_room r
    where r.id = ${roomId} and r.status = 'enable' and ${visibleTo("room", room, memberId)}`.execute(kyselyOf(q));
  return rows[0];
}

/** Locks the member's row: one start at a time per member. */
export async function lockMember(q: Queryable, memberId: number): Promise<void> {
  await q.query("select id from member where id = $1 for update", [memberId]);
}

/** Every attempt of the member in the room, first first. */
export async function memberRoomAttempts(q: Queryable, memberId: number, roomId: number): Promise<AttemptRow[]> {
  return (await q.query<AttemptRow>("select * from exam_attempt where user_id = $1 and room_id = $2 order by id", [memberId, roomId])).rows;
}

export interface NewOfficialAttempt {
  uuid: string;
  userId: number;
  paperId: number;
  roomId: number;
  /** JSON text of the attempt's `questions` (id and points, in the order given). */
  questions: string;
  startedAt: number;
  deadline: number;
  lastSeenAt: number;
  /** JSON text of the snapshot's paper and questions (snapshot.ts). */
  snapshotPaper: string;
  snapshotQuestions: string;
}

/** The attempt and what it sits (its snapshot), in one statement. */
export async function insertOfficialAttempt(q: Queryable, a: NewOfficialAttempt): Promise<AttemptRow> {
  const inserted = await q.query<AttemptRow>(
    `with a as (
       insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, questions, answers, started_at, deadline, status, last_seen_at)
       values ($1, $2, 'official', $3, $4, $5, '{}', $6, $7, 'open', $8) returning *
     ), s as (insert into exam_attempt_snapshot (attempt_id, paper, questions) select id, $9::jsonb, $10::jsonb from a)
     select * from a`,
    [a.uuid, a.userId, a.paperId, a.roomId, a.questions, a.startedAt, a.deadline, a.lastSeenAt, a.snapshotPaper, a.snapshotQuestions],
  );
  return inserted.rows[0]!;
}

/** The server heard from the device (ms) for an open attempt resumed. */
export async function touchAttempt(q: Queryable, attemptId: number, nowMs: number): Promise<void> {
  await q.query("update exam_attempt set last_seen_at = $1 where id = $2", [nowMs, attemptId]);
}

/** The member's official attempt by its uuid, locked, or undefined. */
export async function lockOfficialAttempt(q: Queryable, memberId: number, uuid: string): Promise<AttemptRow | undefined> {
  return (await q.query<AttemptRow>("select * from exam_attempt where user_id = $1 and uuid = $2 and kind = 'official' for update", [memberId, uuid])).rows[0];
}

/** Writes an attempt's merged answers and their times (read-modify-write under the row lock). */
export async function saveAttemptAnswers(q: Queryable, attemptId: number, answers: Record<string, unknown>, times: Record<string, number>, nowMs: number): Promise<void> {
  await q.query("update exam_attempt set answers = $1, answer_times = $2, last_seen_at = $3 where id = $4", [JSON.stringify(answers), JSON.stringify(times), nowMs, attemptId]);
}

/** What an answer op needs of the member's official attempt, locked, or undefined. */
export async function lockAnswerState(q: Queryable, memberId: number, uuid: string): Promise<Pick<AttemptRow, "status" | "questions" | "answers" | "answer_times"> | undefined> {
  const { rows } = await q.query<Pick<AttemptRow, "status" | "questions" | "answers" | "answer_times">>(
    "select status, questions, answers, answer_times from exam_attempt where user_id = $1 and uuid = $2 and kind = 'official' for update",
    [memberId, uuid],
  );
  return rows[0];
}

/**
 * The in-time save as one statement: the answers merged into the attempt's map (`answers ||
 * patch`, `answer_times || times`) in the UPDATE that also checks the attempt is the member's,
 * official, open and within deadline + grace, each answer kept only when it is for a question
 * of the attempt and made no earlier than the answer held (the row's values as the UPDATE sees
 * them: a concurrent save to the same attempt is waited for and the merge re-evaluated on its
 * result, so of two answers the later still wins). `saved` counts the answers to questions of
 * the attempt, as the read-modify-write did. Null when no such open attempt is in time (the
 * caller then finds out why under the row lock; nothing was changed).
 */
const MERGE_IN_TIME = `with given as (
     select i.key, i.value as answer, least(coalesce((($3::jsonb) ->> i.key)::numeric, $4), $4) as made_at
     from jsonb_each($2::jsonb) as i
   )
   update exam_attempt a set
     answers = a.answers || coalesce((select jsonb_object_agg(g.key, g.answer) from given g
       where exists (select 1 from jsonb_array_elements(a.questions) q where q ->> 'id' = g.key)
         and coalesce((a.answer_times ->> g.key)::numeric, 0) <= g.made_at), '{}'::jsonb),
     answer_times = a.answer_times || coalesce((select jsonb_object_agg(g.key, g.made_at) from given g
       where exists (select 1 from jsonb_array_elements(a.questions) q where q ->> 'id' = g.key)
         and coalesce((a.answer_times ->> g.key)::numeric, 0) <= g.made_at), '{}'::jsonb),
     last_seen_at = $4
   where a.user_id = $1 and a.uuid = $5 and a.kind = 'official' and a.status = 'open' and $4 <= a.deadline * 1000 + $6
   returning (select count(*)::int from given g where exists (select 1 from jsonb_array_elements(a.questions) q where q ->> 'id' = g.key)) as saved`;
/** A save: prepared (planned once per connection) and answering only the count, not the attempt's row (its questions, every answer). */
const MERGE_SAVE = prepared("official.save.merge", MERGE_IN_TIME);
/** A submission: the attempt's row too, to grade it (`select *`-like, so never prepared: see `prepared`). */
const MERGE_SUBMIT = `${MERGE_IN_TIME}, a.*`;

/** The answers a save or submission brings: question id -> answer, and when each was made (ms, the device's word). */
export interface GivenAnswers {
  uuid: string;
  answers: Record<string, unknown>;
  answeredAt?: Record<string, number> | undefined;
}

export async function mergeInTime(db: Queryable, memberId: number, body: GivenAnswers): Promise<{ saved: number } | null>;
export async function mergeInTime(db: Queryable, memberId: number, body: GivenAnswers, withRow: true): Promise<{ saved: number; attempt: AttemptRow } | null>;
export async function mergeInTime(db: Queryable, memberId: number, body: GivenAnswers, withRow = false): Promise<{ saved: number; attempt?: AttemptRow } | null> {
  const params = [memberId, JSON.stringify(body.answers), JSON.stringify(body.answeredAt ?? {}), Date.now(), body.uuid, SUBMIT_GRACE_SECONDS * 1000];
  if (!withRow) {
    const { rows } = await db.query<{ saved: number }>(MERGE_SAVE, params);
    return rows[0] ? { saved: rows[0].saved } : null;
  }
  const { rows } = await db.query<AttemptRow & { saved: number }>(MERGE_SUBMIT, params);
  const row = rows[0];
  if (!row) return null;
  const { saved, ...attempt } = row;
  return { attempt, saved };
}
