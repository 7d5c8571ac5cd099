import { sql } from "kysely";
import type { CardState } from "../../../shared/exam/review.ts";
import { prepared, runPrepared, type Queryable } from "../../db/index.ts";
import { fixedText, kyselyOf } from "../../db/kysely.ts";
import { PRACTISED } from "../../modules/exam/repository.ts";
import type { QuestionRow } from "../../modules/exam/questions.ts";
import { visibleTo } from "../../modules/org/visibility.ts";

/**
 * The statements of the exam and review ops (exam.ts, review.ts) and of the states they make.
 * An op's statements run once per op in its batch's transaction: the hot ones are prepared
 * statements with their parameters' and rows' types declared (run by `runPrepared`), the rest
 * typed Kysely, as are the states read once per request.
 */

// ---- Practice answers (exam.ts)

/**
 * The question of a practice answer, with what grading it needs and no more (not its stem,
 * options or analysis). A prepared statement: its visibility check costs more to plan than to run.
 */
const PRACTICE_QUESTION = prepared<PracticeQuestion, [questionId: number, userId: number]>(
  "sync.practice.question",
  fixedText(sql`select id, classify_id, type, answer, score, version,
          exists (select 1 from exam_withheld_question w where w.question_id = q.id) as withheld
   from exam_question q
   where q.id = $1 and ${PRACTISED} and ${visibleTo("bank", sql.ref("q.classify_id"), sql.raw<number>("$2"))}`),
);
/** The same, for every practice answer of a batch at once. */
const PRACTICE_QUESTIONS = prepared<PracticeQuestion, [ids: number[], userId: number]>(
  "sync.practice.questions",
  fixedText(sql`select id, classify_id, type, answer, score, version,
          exists (select 1 from exam_withheld_question w where w.question_id = q.id) as withheld
   from exam_question q
   where q.id = any($1::int[]) and ${PRACTISED} and ${visibleTo("bank", sql.ref("q.classify_id"), sql.raw<number>("$2"))}`),
);
/** An earlier version of a question, as grading reads it (migration 0042). */
const PRACTICE_VERSION = prepared<Pick<QuestionRow, "type" | "answer" | "score">, [questionId: number, version: number]>(
  "sync.practice.version",
  "select type, answer, score from exam_question_version where question_id = $1 and version = $2",
);
export type PracticeQuestion = Pick<QuestionRow, "id" | "classify_id" | "type" | "answer" | "score" | "version"> & { withheld: boolean };

/** The question of a practice answer, if the member may practise it (see PRACTICE_QUESTION). */
export async function practiceQuestion(tx: Queryable, questionId: number, userId: number): Promise<PracticeQuestion | undefined> {
  return (await runPrepared(tx, PRACTICE_QUESTION, [questionId, userId])).rows[0];
}

/** The questions among `ids` the member may practise, in one statement (see PRACTICE_QUESTIONS). */
export async function practiceQuestionsOf(tx: Queryable, ids: number[], userId: number): Promise<PracticeQuestion[]> {
  return (await runPrepared(tx, PRACTICE_QUESTIONS, [ids, userId])).rows;
}

/** A question as its version `version` graded, if it had that version. */
export async function practiceVersion(tx: Queryable, questionId: number, version: number): Promise<Pick<QuestionRow, "type" | "answer" | "score"> | undefined> {
  return (await runPrepared(tx, PRACTICE_VERSION, [questionId, version])).rows[0];
}

/** A practice answer, judged: what its op writes. */
export interface PracticeRow {
  opId: string;
  questionId: number;
  bankId: number;
  answer: string;
  correct: boolean | null;
  score: number;
  at: number;
}

/**
 * Practice answers and, for the wrong ones, the wrong book's counts, in one statement for any
 * number of answers: the answers in op order (their serial ids keep that order), the wrong book
 * counted per question (each wrong answer counts one, the latest wrong one is its time), its rows
 * upserted in question order so that two batches of one member lock them in the same order.
 */
type PracticeColumns = [
  userId: number,
  opIds: string[],
  questionIds: number[],
  bankIds: number[],
  answers: string[],
  correct: (boolean | null)[],
  scores: number[],
  at: number[],
];
const WRITE_PRACTICE = prepared<never, PracticeColumns>(
  "sync.practice.write",
  `with a as (
     select * from unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::boolean[], $7::numeric[], $8::bigint[])
       with ordinality as a (op_id, question_id, bank_id, answer, correct, score, at, n)
   ), answered as (
     insert into exam_practice_answer (user_id, op_id, question_id, bank_id, answer, correct, score, at)
     select $1, op_id, question_id, bank_id, answer::jsonb, correct, score, at from a order by n
   )
   insert into exam_wrong (user_id, question_id, count, last_time)
   select $1, question_id, count(*), max(at) from a where correct is false group by question_id order by question_id
   on conflict (user_id, question_id) do update set count = exam_wrong.count + excluded.count, last_time = greatest(exam_wrong.last_time, excluded.last_time)`,
);

export async function writePracticeAnswers(tx: Queryable, userId: number, rows: readonly PracticeRow[]): Promise<void> {
  await runPrepared(tx, WRITE_PRACTICE, [
    userId,
    rows.map((r) => r.opId),
    rows.map((r) => r.questionId),
    rows.map((r) => r.bankId),
    rows.map((r) => r.answer),
    rows.map((r) => r.correct),
    rows.map((r) => r.score),
    rows.map((r) => r.at),
  ]);
}

// ---- Favourites, the wrong book, progress (exam.ts): last writer wins by (op time, op id)

export async function questionExists(tx: Queryable, questionId: number): Promise<boolean> {
  return (await kyselyOf(tx).selectFrom("exam_question").select("id").where("id", "=", questionId).executeTakeFirst()) !== undefined;
}

export async function bankExists(tx: Queryable, bankId: number): Promise<boolean> {
  return (await kyselyOf(tx).selectFrom("exam_classify").select("id").where("id", "=", bankId).executeTakeFirst()) !== undefined;
}

/**
 * The member's one value of `table` per `key` (`$1` the member, `$2` the key, `$3` the value, `$4`
 * the op's time, `$5` its id), set by the latest op: ordered by (at, op id), so an older op
 * arriving late changes nothing and replays land the same on every device.
 */
function latestOpUpsert<V>(table: "exam_favourite" | "exam_progress", key: string, value: string) {
  const [t, k, v] = [sql.table(table), sql.ref(key), sql.ref(value)];
  const text = fixedText(sql`insert into ${t} (user_id, ${k}, ${v}, at, op_id) values ($1, $2, $3, $4, $5)
     on conflict (user_id, ${k}) do update set ${v} = excluded.${v}, at = excluded.at, op_id = excluded.op_id
     where (excluded.at, excluded.op_id collate "C") > (${t}.at, ${t}.op_id collate "C")`);
  return prepared<never, [userId: number, key: number, value: V, at: number, opId: string]>(`sync.${table}.set`, text);
}
const SET_FAVOURITE = latestOpUpsert<boolean>("exam_favourite", "question_id", "on_");
const SET_PROGRESS = latestOpUpsert<number>("exam_progress", "bank_id", "position");

export async function setFavourite(tx: Queryable, userId: number, questionId: number, on: boolean, at: number, opId: string): Promise<void> {
  await runPrepared(tx, SET_FAVOURITE, [userId, questionId, on, at, opId]);
}

/** Takes a question out of the wrong book at `at` (until a later wrong answer); its counts stay. */
export async function removeFromWrongBook(tx: Queryable, userId: number, questionId: number, at: number): Promise<void> {
  await kyselyOf(tx)
    .insertInto("exam_wrong")
    .values({ user_id: userId, question_id: questionId, count: 0, last_time: 0, removed_at: at })
    .onConflict((oc) => oc.columns(["user_id", "question_id"]).doUpdateSet({ removed_at: sql`greatest(exam_wrong.removed_at, excluded.removed_at)` }))
    .execute();
}

export async function setProgress(tx: Queryable, userId: number, bankId: number, position: number, at: number, opId: string): Promise<void> {
  await runPrepared(tx, SET_PROGRESS, [userId, bankId, position, at, opId]);
}

/** The member's favourites (by question id), wrong book (those in it, by question id) and progress (by bank id). */
/**
 * The member's state in one prepared statement (every sync's pull reads it: after each official
 * answer too), each list as a JSON array in the order the device merges it.
 */
const EXAM_STATE = prepared<ExamStateRows, [userId: number]>(
  "sync.state.exam",
  `select
     coalesce((select json_agg(f.question_id order by f.question_id) from exam_favourite f where f.user_id = $1 and f.on_), '[]') as favourites,
     coalesce((select json_agg(json_build_object('question_id', w.question_id, 'count', w.count, 'last_time', w.last_time) order by w.question_id)
               from exam_wrong w where w.user_id = $1 and w.count > 0 and not (w.removed_at >= w.last_time)), '[]') as wrong,
     coalesce((select json_agg(json_build_object('bank_id', p.bank_id, 'position', p.position, 'at', p.at) order by p.bank_id)
               from exam_progress p where p.user_id = $1), '[]') as progress`,
);
interface ExamStateRows {
  favourites: number[];
  wrong: { question_id: number; count: number; last_time: number }[];
  progress: { bank_id: number; position: number; at: number }[];
}

export async function examStateRows(db: Queryable, userId: number): Promise<{
  favourites: { question_id: number }[];
  wrong: { question_id: number; count: number; last_time: number }[];
  progress: { bank_id: number; position: number; at: number }[];
}> {
  const { rows } = await runPrepared(db, EXAM_STATE, [userId]);
  const row = rows[0]!;
  return { favourites: row.favourites.map((question_id) => ({ question_id })), wrong: row.wrong, progress: row.progress };
}

// ---- Spaced review (review.ts)

export interface LogRow {
  op_id: string;
  question_id: number;
  at: string | number;
  correct: boolean;
  grade: "hard" | "easy" | null;
  retention: string | number;
}

/** Whether question `$1` is one member `$2` may practise (an open bank's enabled, or hidden since, question). */
const PRACTISED_OPEN = prepared<{ open: number }, [questionId: number, userId: number]>(
  "sync.review.practised",
  fixedText(sql`select 1 as open from exam_question q where q.id = $1 and ${PRACTISED} and ${visibleTo("bank", sql.ref("q.classify_id"), sql.raw<number>("$2"))}`),
);

/** Whether the member may practise the question (an open bank's enabled, or hidden since, question). */
export async function practisedQuestionOpen(tx: Queryable, questionId: number, userId: number): Promise<boolean> {
  const { rows } = await runPrepared(tx, PRACTISED_OPEN, [questionId, userId]);
  return rows.length > 0;
}

// Every review op runs these (the card locked, its log written and read back, the card stored):
// prepared, so no op builds or plans them again.
type CardKey = [userId: number, questionId: number];
const CREATE_CARD = prepared<never, CardKey>("sync.review.card.create", "insert into exam_review_card (user_id, question_id) values ($1, $2) on conflict do nothing");
const LOCK_CARD = prepared<{ user_id: number }, CardKey>("sync.review.card.lock", "select user_id from exam_review_card where user_id = $1 and question_id = $2 for update");
const INSERT_LOG = prepared<never, [userId: number, opId: string, questionId: number, correct: boolean, grade: "hard" | "easy" | null, retention: number, at: number]>(
  "sync.review.log.insert",
  "insert into exam_review_log (user_id, op_id, question_id, correct, grade, retention, at) values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing",
);
const CARD_LOGS = prepared<LogRow, CardKey>(
  "sync.review.log.card",
  "select op_id, question_id, at, correct, grade, retention from exam_review_log where user_id = $1 and question_id = $2",
);
type CardColumns = [
  due: number,
  stability: number,
  difficulty: number,
  state: number,
  reps: number,
  lapses: number,
  scheduledDays: number,
  learningSteps: number,
  lastReview: number | null,
  streak: number,
  streakSince: number | null,
];
const UPDATE_CARD = prepared<never, [...CardKey, ...CardColumns]>(
  "sync.review.card.update",
  `update exam_review_card set due = $3, stability = $4, difficulty = $5, state = $6, reps = $7, lapses = $8,
     scheduled_days = $9, learning_steps = $10, last_review = $11, streak = $12, streak_since = $13
   where user_id = $1 and question_id = $2`,
);

/** Locks the member's card of the question (the row review.ts replays under), creating it first if it has none. */
export async function lockCard(tx: Queryable, userId: number, questionId: number): Promise<void> {
  await runPrepared(tx, CREATE_CARD, [userId, questionId]);
  await runPrepared(tx, LOCK_CARD, [userId, questionId]);
}

/** Adds a review to the log, once per op id (the log's key). */
export async function insertReviewLog(
  tx: Queryable,
  userId: number,
  log: { opId: string; questionId: number; correct: boolean; grade: "hard" | "easy" | null; retention: number; at: number },
): Promise<void> {
  await runPrepared(tx, INSERT_LOG, [userId, log.opId, log.questionId, log.correct, log.grade, log.retention, log.at]);
}

/** The member's review logs of the question, in no particular order (the replay orders them). */
export async function cardLogs(tx: Queryable, userId: number, questionId: number): Promise<LogRow[]> {
  return (await runPrepared(tx, CARD_LOGS, [userId, questionId])).rows;
}

/** Stores the member's card of the question as its replay made it. */
export async function updateCard(tx: Queryable, userId: number, questionId: number, card: CardState): Promise<void> {
  await runPrepared(tx, UPDATE_CARD, [
    userId,
    questionId,
    card.due,
    card.stability,
    card.difficulty,
    card.state,
    card.reps,
    card.lapses,
    card.scheduledDays,
    card.learningSteps,
    card.lastReview,
    card.streak,
    card.streakSince,
  ]);
}

export async function setRetention(tx: Queryable, userId: number, retention: number, at: number, opId: string): Promise<void> {
  await kyselyOf(tx)
    .insertInto("exam_review_setting")
    .values({ user_id: userId, retention, at, op_id: opId })
    .onConflict((oc) =>
      oc
        .column("user_id")
        .doUpdateSet((eb) => ({ retention: eb.ref("excluded.retention"), at: eb.ref("excluded.at"), op_id: eb.ref("excluded.op_id") }))
        .where(sql<boolean>`(excluded.at, excluded.op_id collate "C") > (exam_review_setting.at, exam_review_setting.op_id collate "C")`),
    )
    .execute();
}

/** The member's desired retention (none: never set) and review logs in (at, op_id) order, in one prepared statement (every sync's pull reads it). */
const REVIEW_STATE = prepared<{ setting: { retention: number; at: number } | null; logs: LogRow[] }, [userId: number]>(
  "sync.state.review",
  `select
     (select json_build_object('retention', s.retention, 'at', s.at) from exam_review_setting s where s.user_id = $1) as setting,
     coalesce((select json_agg(json_build_object('op_id', l.op_id, 'question_id', l.question_id, 'at', l.at, 'correct', l.correct, 'grade', l.grade, 'retention', l.retention)
                               order by l.at, l.op_id collate "C")
               from exam_review_log l where l.user_id = $1), '[]') as logs`,
);

export async function reviewStateRows(db: Queryable, userId: number): Promise<{ setting: { retention: number; at: number } | undefined; logs: LogRow[] }> {
  const { rows } = await runPrepared(db, REVIEW_STATE, [userId]);
  const row = rows[0]!;
  return { setting: row.setting ?? undefined, logs: row.logs };
}
