import { SUBMIT_GRACE_SECONDS } from "../../../../shared/exam/official.ts";
import { sql, type RawBuilder } from "kysely";
import { batcherOf } from "../../../db/batch.ts";
import { prepared, runPrepared, type Queryable } from "../../../db/index.ts";
import { fixedText, kyselyOf } from "../../../db/kysely.ts";
import { visibleTo } from "../../org/visibility.ts";
import { memberExtras } from "../overrides.ts";
import type { MemberRoomTerms } from "../repository.ts";
import type { AttemptRow } from "./attempt.ts";

/**
 * The statements of official exams (official.ts): the start, the in-time save and submission,
 * the answer op. These are the product's hottest paths (every taker starts, then saves every few
 * seconds), so each statement is the one the path always ran, typed on Kysely: the save's merge
 * stays a prepared statement, and none of them adds a round trip.
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
  await kyselyOf(q).selectFrom("member").select("id").where("id", "=", memberId).forUpdate().execute();
}

/** Every attempt of the member in the room, first first. */
export async function memberRoomAttempts(q: Queryable, memberId: number, roomId: number): Promise<AttemptRow[]> {
  return kyselyOf(q).selectFrom("exam_attempt").selectAll().where("user_id", "=", memberId).where("room_id", "=", roomId).orderBy("id").$castTo<AttemptRow>().execute();
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
  const inserted = await sql<AttemptRow>`with a as (
       insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, questions, answers, started_at, deadline, status, last_seen_at)
       values (${a.uuid}, ${a.userId}, 'official', ${a.paperId}, ${a.roomId}, ${a.questions}, '{}', ${a.startedAt}, ${a.deadline}, 'open', ${a.lastSeenAt}) returning *
     ), s as (insert into exam_attempt_snapshot (attempt_id, paper, questions) select id, ${a.snapshotPaper}::jsonb, ${a.snapshotQuestions}::jsonb from a)
     select * from a`.execute(kyselyOf(q));
  return inserted.rows[0]!;
}

/** The server heard from the device (ms) for an open attempt resumed. */
export async function touchAttempt(q: Queryable, attemptId: number, nowMs: number): Promise<void> {
  await kyselyOf(q).updateTable("exam_attempt").set({ last_seen_at: nowMs }).where("id", "=", attemptId).execute();
}

/** The query of the member's official attempt by its uuid (every column). */
export const officialAttemptQuery = (q: Queryable, memberId: number, uuid: string) =>
  kyselyOf(q).selectFrom("exam_attempt").selectAll().where("user_id", "=", memberId).where("uuid", "=", uuid).where("kind", "=", "official");

/** The member's official attempt by its uuid, locked, or undefined. */
export async function lockOfficialAttempt(q: Queryable, memberId: number, uuid: string): Promise<AttemptRow | undefined> {
  return officialAttemptQuery(q, memberId, uuid).forUpdate().$castTo<AttemptRow>().executeTakeFirst();
}

/** Writes an attempt's merged answers and their times (read-modify-write under the row lock). */
export async function saveAttemptAnswers(q: Queryable, attemptId: number, answers: Record<string, unknown>, times: Record<string, number>, nowMs: number): Promise<void> {
  await kyselyOf(q)
    .updateTable("exam_attempt")
    .set({ answers: JSON.stringify(answers), answer_times: JSON.stringify(times), last_seen_at: nowMs })
    .where("id", "=", attemptId)
    .execute();
}

/** What an answer op needs of the member's official attempt, locked, or undefined. */
export async function lockAnswerState(q: Queryable, memberId: number, uuid: string): Promise<Pick<AttemptRow, "status" | "questions" | "answers" | "answer_times"> | undefined> {
  return kyselyOf(q)
    .selectFrom("exam_attempt")
    .select(["status", "questions", "answers", "answer_times"])
    .where("user_id", "=", memberId)
    .where("uuid", "=", uuid)
    .where("kind", "=", "official")
    .forUpdate()
    .$castTo<Pick<AttemptRow, "status" | "questions" | "answers" | "answer_times">>()
    .executeTakeFirst();
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
 *
 * Its values are the parameters of the prepared text (`sql.raw("$1")`…) or a submission's own values.
 */
interface MergeValues {
  memberId: RawBuilder<unknown>;
  answers: RawBuilder<unknown>;
  times: RawBuilder<unknown>;
  now: RawBuilder<unknown>;
  uuid: RawBuilder<unknown>;
  graceMs: RawBuilder<unknown>;
}
const mergeInTimeSql = (v: MergeValues, returning: RawBuilder<unknown>, also: RawBuilder<unknown> = sql``): RawBuilder<unknown> => sql`with given as (
     select i.key, i.value as answer, least(coalesce(((${v.times}::jsonb) ->> i.key)::numeric, ${v.now}), ${v.now}) as made_at
     from jsonb_each(${v.answers}::jsonb) as i
   )
   update exam_attempt a set
     answers = a.answers || coalesce((select jsonb_object_agg(g.key, g.answer) from given g
       where exists (select 1 from jsonb_array_elements(a.questions) q where q ->> 'id' = g.key)
         and coalesce((a.answer_times ->> g.key)::numeric, 0) <= g.made_at), '{}'::jsonb),
     answer_times = a.answer_times || coalesce((select jsonb_object_agg(g.key, g.made_at) from given g
       where exists (select 1 from jsonb_array_elements(a.questions) q where q ->> 'id' = g.key)
         and coalesce((a.answer_times ->> g.key)::numeric, 0) <= g.made_at), '{}'::jsonb),
     last_seen_at = ${v.now}
   where a.user_id = ${v.memberId} and a.uuid = ${v.uuid} and a.kind = 'official' and a.status = 'open' and ${v.now} <= a.deadline * 1000 + ${v.graceMs}${also}
   returning (select count(*)::int from given g where exists (select 1 from jsonb_array_elements(a.questions) q where q ->> 'id' = g.key)) as saved${returning}`;
type MergeParams = [memberId: number, answers: string, times: string, now: number, uuid: string, graceMs: number];
const mergeParams = (memberId: number, body: GivenAnswers, now = Date.now()): MergeParams => [
  memberId,
  JSON.stringify(body.answers),
  JSON.stringify(body.answeredAt ?? {}),
  now,
  body.uuid,
  SUBMIT_GRACE_SECONDS * 1000,
];
const valuesOf = ([memberId, answers, times, now, uuid, graceMs]: MergeParams): MergeValues => ({
  memberId: sql`${memberId}`,
  answers: sql`${answers}`,
  times: sql`${times}`,
  now: sql`${now}`,
  uuid: sql`${uuid}`,
  graceMs: sql`${graceMs}`,
});
/** A save: prepared (planned once per connection) and answering only the count, not the attempt's row (its questions, every answer). */
const MERGE_SAVE = prepared<{ saved: number }, MergeParams>(
  "official.save.merge",
  fixedText(
    mergeInTimeSql(
      { memberId: sql.raw("$1"), answers: sql.raw("$2"), times: sql.raw("$3"), now: sql.raw("$4"), uuid: sql.raw("$5"), graceMs: sql.raw("$6") },
      sql``,
    ),
  ),
);

/**
 * An `official.answer` op sent alone (what the app sends while a member sits an exam: each answer
 * a batch of its own), in time, as ONE statement in its own transaction: the merge above, made
 * only when the op id is not recorded yet, and the op id recorded (sync_op) only when the merge
 * kept an answer. So the common case costs one round trip, not four (begin, record, merge,
 * commit), and stays exactly-once: the merge and the record commit together or not at all.
 * `applied` when both happened; null otherwise (nothing recorded: an op sent before, an attempt
 * not open or out of time, a question not in it, a twin of the op recorded meanwhile), and the
 * caller takes the batch's general path, which answers each of those as before.
 */
const ANSWER_OP_ALONE = prepared<{ saved: number | null; recorded: number }, [...MergeParams, opId: string, at: number]>(
  "sync.official.answer.alone",
  `with upd as (${fixedText(
    mergeInTimeSql(
      { memberId: sql.raw("$1"), answers: sql.raw("$2"), times: sql.raw("$3"), now: sql.raw("$4"), uuid: sql.raw("$5"), graceMs: sql.raw("$6") },
      sql``,
      sql` and not exists (select 1 from sync_op s where s.user_id = $1 and s.op_id = $7::text)`,
    ),
  )}),
   rec as (insert into sync_op (user_id, op_id, type, at) select $1, $7::text, 'official.answer', $8::bigint from upd where upd.saved > 0
     on conflict do nothing returning op_id)
   select (select saved from upd) as saved, (select count(*)::int from rec) as recorded`,
);

/** One answer op sent alone, as the shared statement below takes it. */
interface LoneAnswer {
  memberId: number;
  opId: string;
  at: number;
  body: GivenAnswers;
  /** When it came (ms): its deadline is judged against this time, as a lone statement's. */
  now: number;
}

async function answerOpAloneNow(db: Queryable, { memberId, opId, at, body, now }: LoneAnswer): Promise<"applied" | null> {
  const { rows } = await runPrepared(db, ANSWER_OP_ALONE, [...mergeParams(memberId, body, now), opId, at]);
  const row = rows[0];
  return row && (row.saved ?? 0) > 0 && row.recorded === 1 ? "applied" : null;
}

/**
 * The answer ops that arrive together (each alone in its batch, from many members), taken as ONE
 * statement: what `ANSWER_OP_ALONE` does for one, row by row over arrays (member, attempt, op id,
 * op time, question, answer, when it was made, the server's time when it came). Each row's
 * attempt is locked first, skipping one another transaction holds (a submission, a late save: the
 * others' answers never wait for it; that row is answered `locked` and sent alone, where it waits
 * as it always did). Its answer is merged into the attempt when the attempt is open and in time,
 * the question is one of the attempt's and the op id is not recorded yet, with the same rule (the
 * later answer wins), and its op id recorded in the same statement (so the merge and the record
 * commit together or not at all: exactly once). A locked row that was not recorded (not open, out
 * of time, a question not in the attempt, sent before, a twin recorded meanwhile) goes the general
 * path as a lone one does. `$9` is the grace after a deadline (ms).
 */
const ANSWER_OPS_TOGETHER = prepared<
  { member_id: number; op_id: string; recorded: boolean },
  [memberIds: number[], uuids: string[], opIds: string[], ats: number[], keys: string[], answers: string[], answeredAt: (number | null)[], nows: number[], graceMs: number]
>(
  "sync.official.answer.together",
  `with given as (
     select g.member_id, g.uuid, g.op_id, g.at, g.key, g.answer, g.now, least(coalesce(g.answered_at, g.now), g.now) as made_at
     from unnest($1::int[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::jsonb[], $7::numeric[], $8::bigint[])
       as g (member_id, uuid, op_id, at, key, answer, answered_at, now)
   ), locked as (
     select a.id, g.* from exam_attempt a join given g on a.user_id = g.member_id and a.uuid = g.uuid and a.kind = 'official'
     order by a.id for update of a skip locked
   ), upd as (
     update exam_attempt a set
       answers = case when coalesce((a.answer_times ->> g.key)::numeric, 0) <= g.made_at then a.answers || jsonb_build_object(g.key, g.answer) else a.answers end,
       answer_times = case when coalesce((a.answer_times ->> g.key)::numeric, 0) <= g.made_at then a.answer_times || jsonb_build_object(g.key, g.made_at) else a.answer_times end,
       last_seen_at = g.now
     from locked g
     where a.id = g.id and a.status = 'open' and g.now <= a.deadline * 1000 + $9
       and exists (select 1 from jsonb_array_elements(a.questions) q where q ->> 'id' = g.key)
       and not exists (select 1 from sync_op s where s.user_id = g.member_id and s.op_id = g.op_id)
     returning g.member_id, g.op_id, g.at
   ), rec as (
     insert into sync_op (user_id, op_id, type, at) select u.member_id, u.op_id, 'official.answer', u.at from upd u order by u.member_id, u.op_id
     on conflict do nothing returning user_id, op_id
   )
   select l.member_id, l.op_id, exists (select 1 from rec r where r.user_id = l.member_id and r.op_id = l.op_id) as recorded from locked l`,
);

/**
 * Runs a batch of lone answers: one statement for all of them (a lone one: the single statement).
 * An answer that shares its attempt or its op id with an earlier one of the batch is left out
 * (one UPDATE changes a row once), as is an op of other than one answer, and answered `alone`: its caller sends it by itself after this
 * statement committed; so is one whose attempt another transaction held (or that has no such
 * attempt: the single statement then says so). When the statement fails (a value the database
 * refuses, a deadlock), every answer of it is `alone`, so one bad row never fails the others.
 */
async function answerOpsTogether(db: Queryable, items: LoneAnswer[]): Promise<("applied" | "alone" | null)[]> {
  if (items.length === 1) return [await answerOpAloneNow(db, items[0]!)];
  const seen = new Set<string>();
  const taken: LoneAnswer[] = [];
  const out = items.map((item) => {
    const attempt = `${item.memberId} a ${item.body.uuid}`;
    const op = `${item.memberId} o ${item.opId}`;
    if (seen.has(attempt) || seen.has(op) || Object.keys(item.body.answers).length !== 1) return "alone" as const;
    seen.add(attempt).add(op);
    taken.push(item);
    return undefined;
  });
  const rows = taken.flatMap(({ memberId, opId, at, body, now }) =>
    Object.entries(body.answers).map(([key, answer]) => ({ memberId, uuid: body.uuid, opId, at, key, answer: JSON.stringify(answer), answeredAt: body.answeredAt?.[key] ?? null, now })),
  );
  let locked: Map<string, boolean>;
  try {
    const { rows: done } = await runPrepared(db, ANSWER_OPS_TOGETHER, [
      rows.map((r) => r.memberId),
      rows.map((r) => r.uuid),
      rows.map((r) => r.opId),
      rows.map((r) => r.at),
      rows.map((r) => r.key),
      rows.map((r) => r.answer),
      rows.map((r) => r.answeredAt),
      rows.map((r) => r.now),
      SUBMIT_GRACE_SECONDS * 1000,
    ]);
    locked = new Map(done.map((r) => [`${r.member_id} o ${r.op_id}`, r.recorded]));
  } catch {
    return items.map(() => "alone");
  }
  return items.map((item, i) => {
    if (out[i]) return out[i];
    const recorded = locked.get(`${item.memberId} o ${item.opId}`);
    return recorded === undefined ? "alone" : recorded ? "applied" : null;
  });
}

/** Answer statements in flight at once: one, so two batches never wait on each other's row locks (and the next one gathers meanwhile). */
const ANSWER_BATCH = { maxInFlight: 1, maxBatch: 500 };

/**
 * An answer op sent alone (`ANSWER_OP_ALONE`), shared with the others arriving together
 * (`answerOpsTogether`); acknowledged once the statement that took it committed. `applied`, or
 * null when the caller must take the batch's general path.
 */
export async function answerOpAlone(db: Queryable, memberId: number, opId: string, at: number, body: GivenAnswers): Promise<"applied" | null> {
  const item: LoneAnswer = { memberId, opId, at, body, now: Date.now() };
  const result = await batcherOf(db, "official answer alone", (items: LoneAnswer[]) => answerOpsTogether(db, items), ANSWER_BATCH)(item);
  return result === "alone" ? answerOpAloneNow(db, item) : result;
}

/** The answers a save or submission brings: question id -> answer, and when each was made (ms, the device's word). */
export interface GivenAnswers {
  uuid: string;
  answers: Record<string, unknown>;
  answeredAt?: Record<string, number> | undefined;
}

export async function mergeInTime(db: Queryable, memberId: number, body: GivenAnswers): Promise<{ saved: number } | null>;
export async function mergeInTime(db: Queryable, memberId: number, body: GivenAnswers, withRow: true): Promise<{ saved: number; attempt: AttemptRow } | null>;
export async function mergeInTime(db: Queryable, memberId: number, body: GivenAnswers, withRow = false): Promise<{ saved: number; attempt?: AttemptRow } | null> {
  const params = mergeParams(memberId, body);
  if (!withRow) {
    const { rows } = await runPrepared(db, MERGE_SAVE, params);
    return rows[0] ? { saved: rows[0].saved } : null;
  }
  // A submission: the attempt's row too, to grade it (`select *`-like, so never prepared: see `prepared`).
  const { rows } = await mergeInTimeSql(valuesOf(params), sql`, a.*`).$castTo<AttemptRow & { saved: number }>().execute(kyselyOf(db));
  const row = rows[0];
  if (!row) return null;
  const { saved, ...attempt } = row;
  return { attempt, saved };
}
