import { sql, type Expression, type RawBuilder } from "kysely";
import type { QuestionVersion } from "../../../shared/admin/questions.ts";
import { prepared, runPrepared, type Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import { paperVisibleTo, visibleTo } from "../org/visibility.ts";
import { memberExtras } from "./overrides.ts";
import type { QuestionRow } from "./questions.ts";

/**
 * The exam module's statements: the catalog, banks, question lookup, review queue and mastery,
 * question versions and exam-only content (catalog.ts, lookup.ts, questions.ts, review.ts,
 * versions.ts and withheld.ts call these). A statement standing alone is typed Kysely; one built
 * on the SQL conditions other statements share (who sees a bank, what is withheld, a bank's
 * version) is a Kysely `sql` template over those conditions' pieces, its values parameters.
 */

/** The columns of `exam_question` a `QuestionRow` holds. */
export const QUESTION_FIELDS = ["id", "classify_id", "type", "stem", "options", "answer", "analysis", "difficulty", "score", "version"] as const;

/**
 * A question a device may have practised, as SQL on `exam_question q`: enabled, or hidden since
 * (deleted while in use, its restore status enabled): a device offline then still answered it,
 * and its answers and reviews must not be lost when they arrive.
 */
export const PRACTISED = sql<boolean>`(q.status = 'enable' or (q.status = 'hidden' and q.hidden_status = 'enable'))`;

/** A question that is not withheld (exam-only content, see withheld.ts), as SQL on `exam_question q`. */
export const PRACTISABLE = sql<boolean>`not exists (select 1 from exam_withheld_question w where w.question_id = q.id)`;

/**
 * A bank's content version, as SQL over `exam_classify c` left-joined with its practisable enabled
 * questions `q` (grouped by c.id): changes whenever a question is added, edited, reordered,
 * removed, withheld or released (count, newest question update_time, id sum), and when the bank
 * itself is renamed (its own update_time). Both writes keep update_time moving forward, so two
 * writes within one second still change it (crud/resources/exam.ts).
 */
export const BANK_VERSION_SQL = sql<string>`count(q.id) || '-' || coalesce(max(q.update_time), 0) || '-' || coalesce(sum(q.id), 0) || '-' || c.update_time`;

/**
 * SQL condition, true when paper `paper` (a column, or an id) is not a mock paper: an official room that has not
 * closed (its end time plus its overrides' extra time, migration 0043) uses it, or it can contain a withheld question (a fixed row or a draw row over withheld
 * content, e.g. an exam-only bank: its bank, type and, when the rule sets one, difficulty).
 */
export function paperWithheld(paper: Expression<number> | number): RawBuilder<boolean> {
  return sql<boolean>`(exists (select 1 from exam_room m where m.paper_id = ${paper} and exam_room_closes_at(m.id, m.end_time) > extract(epoch from now())::bigint)
    or exists (
      select 1 from exam_paper_row r
      join exam_question q on (r.kind = 'fixed' and q.id = r.question_id)
        or (r.kind = 'draw' and q.classify_id = r.classify_id and (r.question_type is null or q.type = r.question_type)
          and (r.difficulty is null or q.difficulty = r.difficulty))
      join exam_withheld_question w on w.question_id = q.id
      where r.paper_id = ${paper}))`;
}

// ---- Banks and the catalog (catalog.ts, questions.ts)

export interface CatalogBankRow {
  id: number;
  pid: number;
  title: string;
  title_en: string;
  kind: "practice" | "exam";
  question_count: number;
  version: string;
  /** Open to the member (modules/org/visibility.ts). */
  open: boolean;
}

/** Every enabled bank with its practisable question count and version, heaviest first. Withheld questions are not counted. */
export async function catalogBanks(db: Queryable, memberId: number): Promise<CatalogBankRow[]> {
  const { rows } = await sql<CatalogBankRow>`select c.id, c.pid, c.title, c.title_en, c.kind, ${visibleTo("bank", sql.ref("c.id"), memberId)} as open,
            count(q.id)::int as question_count,
            ${BANK_VERSION_SQL} as version
     from exam_classify c left join exam_question q on q.classify_id = c.id and q.status = 'enable' and ${PRACTISABLE}
     where c.status = 'enable' group by c.id order by c.weigh desc, c.id`.execute(kyselyOf(db));
  return rows;
}

export interface MockPaperRow {
  id: number;
  title: string;
  total_score: number;
  pass_score: number;
  duration: number;
}

/** The enabled papers the member may take as mock papers. Papers kept for official exams are not offered as mock papers. */
export async function mockPapers(db: Queryable, memberId: number): Promise<MockPaperRow[]> {
  const paper = sql.ref<number>("p.id");
  const { rows } = await sql<MockPaperRow>`select p.id, p.title, p.total_score, p.pass_score, p.duration from exam_paper p
     where p.status = 'enable' and not ${paperWithheld(paper)} and ${paperVisibleTo(paper, memberId)} order by p.id`.execute(kyselyOf(db));
  return rows;
}

/**
 * The banks each paper's questions come from: its fixed questions' banks and its draw rules'
 * banks (a bank's mock tab lists the papers that use it).
 */
export async function paperBanks(db: Queryable, paperIds: readonly number[]): Promise<Map<number, number[]>> {
  const byPaper = new Map<number, number[]>(paperIds.map((id) => [id, []]));
  if (paperIds.length === 0) return byPaper;
  const rows = await kyselyOf(db)
    .selectFrom("exam_paper_row as r")
    .leftJoin("exam_question as q", "q.id", "r.question_id")
    .select(["r.paper_id", (eb) => eb.fn.coalesce("q.classify_id", "r.classify_id").as("bank_id")])
    .distinct()
    .where("r.paper_id", "in", [...paperIds])
    .orderBy("r.paper_id")
    .orderBy("bank_id")
    .execute();
  for (const row of rows) if (row.bank_id !== null) byPaper.get(row.paper_id)?.push(row.bank_id);
  return byPaper;
}

/** A room's schedule and rules as a member's pages read them (the room list, an official start). */
export interface MemberRoomTerms {
  id: number;
  title: string;
  paper_id: number;
  start_time: number;
  end_time: number;
  duration: number;
  attempts_allowed: number;
  pass_score: number | string;
  /** The member's overrides in this room (overrides.ts): the most generous of their member and group ones. */
  extra_minutes: number;
  extra_attempts: number;
}

export interface MemberRoomRow extends MemberRoomTerms {
  total_score: number | string | null;
  question_count: number;
  attempts_used: number;
  face_check: boolean;
}

/**
 * The rooms open to the member that have not ended, soonest first, with what the member's
 * introduction to a room shows before entering (never the answers): the paper's question count
 * and points, the attempts used, whether faces are checked, the extras the member's overrides give.
 */
export async function memberRooms(db: Queryable, now: number, groupId: number | null, memberId: number): Promise<MemberRoomRow[]> {
  const room = sql.ref<number>("r.id");
  const { rows } = await sql<MemberRoomRow>`select r.id, r.title, r.paper_id, r.start_time, r.end_time, r.duration, r.attempts_allowed, r.pass_score, p.total_score,
            coalesce((select sum(case when pr.kind = 'fixed' then 1 else pr.count end) from exam_paper_row pr where pr.paper_id = r.paper_id), 0)::int as question_count,
            (select count(*) from exam_attempt a where a.room_id = r.id and a.user_id = ${memberId})::int as attempts_used,
            exists (select 1 from face_rule f where f.id = r.face_rule_id and f.status = 'enable') as face_check,
            ${memberExtras(room, memberId, groupId)}
     from exam_room r left join exam_paper p on p.id = r.paper_id
     where r.status = 'enable' and r.end_time > ${now} and (r.user_group_id is null or r.user_group_id = ${groupId})
       and ${visibleTo("room", room, memberId)} order by r.start_time`.execute(kyselyOf(db));
  return rows;
}

/** An enabled bank open to the member, if any. */
export async function openBank(db: Queryable, bankId: number, memberId: number): Promise<{ id: number; title: string; title_en: string; kind: string } | undefined> {
  const { rows } = await sql<{ id: number; title: string; title_en: string; kind: string }>`select c.id, c.title, c.title_en, c.kind from exam_classify c
     where c.id = ${bankId} and c.status = 'enable' and ${visibleTo("bank", sql.ref("c.id"), memberId)}`.execute(kyselyOf(db));
  return rows[0];
}

/** A practice bank's questions, without the withheld ones (they stay on the server until their rooms end). */
export async function bankQuestions(db: Queryable, bankId: number): Promise<QuestionRow[]> {
  const rows = await kyselyOf(db)
    .selectFrom("exam_question as q")
    .select(QUESTION_FIELDS)
    .where("classify_id", "=", bankId)
    .where("status", "=", "enable")
    .where(PRACTISABLE)
    .orderBy("weigh", "desc")
    .orderBy("id")
    .execute();
  return rows as unknown as QuestionRow[];
}

/** A bank's content version (see BANK_VERSION_SQL) and its question count; none for an unknown bank. */
export async function bankVersionRow(db: Queryable, bankId: number): Promise<{ n: number; version: string } | undefined> {
  const { rows } = await sql<{ n: number; version: string }>`select count(q.id)::int as n, ${BANK_VERSION_SQL} as version
     from exam_classify c left join exam_question q on q.classify_id = c.id and q.status = 'enable' and ${PRACTISABLE}
     where c.id = ${bankId} group by c.id`.execute(kyselyOf(db));
  return rows[0];
}

/** The member's practice answers per bank (every answer counts), by bank id. */
export async function practiceStatsRows(
  db: Queryable,
  memberId: number,
): Promise<{ bank_id: number; answers: number; questions: number; correct: number; wrong: number; last_at: number }[]> {
  return kyselyOf(db)
    .selectFrom("exam_practice_answer")
    .select([
      "bank_id",
      sql<number>`count(*)::int`.as("answers"),
      sql<number>`count(distinct question_id)::int`.as("questions"),
      sql<number>`count(*) filter (where correct is true)::int`.as("correct"),
      sql<number>`count(*) filter (where correct is false)::int`.as("wrong"),
      sql<number>`max(at)`.as("last_at"),
    ])
    .where("user_id", "=", memberId)
    .groupBy("bank_id")
    .orderBy("bank_id")
    .execute();
}

// ---- Questions looked up by id (lookup.ts)

export type LookupRow = QuestionRow & { bank_title: string; bank_title_en: string };

/** The enabled questions among `ids` whose enabled bank is open to the member, with their bank's titles, by id. */
export async function openQuestionsByIds(db: Queryable, ids: readonly number[], memberId: number): Promise<LookupRow[]> {
  const { rows } = await sql<LookupRow>`select q.id, q.classify_id, q.type, q.stem, q.options, q.answer, q.analysis, q.difficulty, q.score,
            c.title as bank_title, c.title_en as bank_title_en
     from exam_question q join exam_classify c on c.id = q.classify_id
     where q.id = any(${ids}::int[]) and q.status = 'enable' and c.status = 'enable' and ${visibleTo("bank", sql.ref("c.id"), memberId)}
     order by q.id`.execute(kyselyOf(db));
  return rows;
}

// ---- Spaced review (review.ts)

/** The review queue of member `userId`: the wrong book (as the exam state has it) and the favourites, of open banks. */
const queueOf = (userId: number) => sql<QueueRow>`
  with queue as (
    select question_id, bool_or(src = 'wrong') as wrong, bool_or(src = 'favourite') as favourite from (
      select question_id, 'wrong' as src from exam_wrong where user_id = ${userId} and count > 0 and not (removed_at >= last_time)
      union all
      select question_id, 'favourite' as src from exam_favourite where user_id = ${userId} and on_
    ) s group by question_id
  )
  select q.id as question_id, q.classify_id, q.type, queue.wrong, queue.favourite,
         c.due, c.reps, c.lapses
  from queue
  join exam_question q on q.id = queue.question_id and q.status = 'enable'
  join exam_classify b on b.id = q.classify_id and b.status = 'enable'
  left join exam_review_card c on c.user_id = ${userId} and c.question_id = q.id
  where ${visibleTo("bank", sql.ref("q.classify_id"), userId)}
    and not exists (select 1 from exam_withheld_question w where w.question_id = q.id)`;

export interface QueueRow {
  question_id: number;
  classify_id: number;
  type: string;
  wrong: boolean;
  favourite: boolean;
  due: string | number | null;
  reps: number | null;
  lapses: number | null;
}

/** The member's review queue, each question with its card's schedule (none: never reviewed). */
export async function reviewQueue(db: Queryable, userId: number): Promise<QueueRow[]> {
  const { rows } = await queueOf(userId).execute(kyselyOf(db));
  return rows;
}

export interface TouchedRow {
  question_id: number;
  classify_id: number;
  title: string;
  title_en: string;
  type: string;
  /** The latest graded practice answer (one waiting for a teacher is not): right or not, and when. */
  latest_correct: boolean | null;
  latest_at: string | number | null;
  due: string | number | null;
  stability: number | null;
  difficulty: number | null;
  state: number | null;
  reps: number | null;
  lapses: number | null;
  scheduled_days: number | null;
  learning_steps: number | null;
  last_review: string | number | null;
}

/** Per question the member answered or reviewed in an open bank: its topic, its latest graded practice result, its card. */
export async function touchedQuestions(db: Queryable, userId: number): Promise<TouchedRow[]> {
  const { rows } = await sql<TouchedRow>`with touched as (
       select question_id from exam_practice_answer where user_id = ${userId}
       union select question_id from exam_review_log where user_id = ${userId}
     )
     select q.id as question_id, q.classify_id, b.title, b.title_en, q.type,
            g.correct as latest_correct, g.at as latest_at,
            c.due, c.stability, c.difficulty, c.state, c.reps, c.lapses, c.scheduled_days, c.learning_steps, c.last_review
     from touched t
     join exam_question q on q.id = t.question_id
     join exam_classify b on b.id = q.classify_id and b.status = 'enable'
     left join exam_review_card c on c.user_id = ${userId} and c.question_id = q.id
     left join lateral (select a.correct, a.at from exam_practice_answer a
                        where a.user_id = ${userId} and a.question_id = q.id and a.correct is not null
                        order by a.at desc, a.id desc limit 1) g on true
     where ${visibleTo("bank", sql.ref("q.classify_id"), userId)}`.execute(kyselyOf(db));
  return rows;
}

/** Every practice answer of the member: its question's bank and type, whether it was right, when. */
export async function practiceAnswersByTopic(db: Queryable, userId: number): Promise<{ classify_id: number; type: string; correct: boolean | null; at: number }[]> {
  return kyselyOf(db)
    .selectFrom("exam_practice_answer as a")
    .innerJoin("exam_question as q", "q.id", "a.question_id")
    .select(["q.classify_id", "q.type", "a.correct", "a.at"])
    .where("a.user_id", "=", userId)
    .execute();
}

// ---- Question versions (versions.ts)

/** Names the admin whose writes to questions follow in this transaction (the versions they make record them). */
export async function actAs(tx: Queryable, adminId: number): Promise<void> {
  await sql`select set_config('exam.admin_id', ${String(adminId)}, true)`.execute(kyselyOf(tx));
}

/** A question's versions, newest first (empty when there is no such question). */
export async function questionVersions(db: Queryable, questionId: number): Promise<QuestionVersion[]> {
  const { rows } = await sql<QuestionVersion>`select v.version, v.type, v.stem, v.options, v.answer, v.analysis, v.difficulty, v.score::float8 as score, v.create_time::float8 as "createTime",
       a.username as admin, v.version = q.version as latest,
       (select count(*)::int from exam_paper_row r where r.question_id = v.question_id and r.question_version = v.version) as "pinnedRows"
     from exam_question_version v join exam_question q on q.id = v.question_id left join admin a on a.id = v.admin_id
     where v.question_id = ${questionId} order by v.version desc`.execute(kyselyOf(db));
  return rows;
}

// ---- Exam-only content (withheld.ts)

/** The rows of `exam_withheld_question` (a question and a room that withholds it, `null`: an exam-only bank), only for `ids` when given. */
export async function withheldRows(db: Queryable, ids?: readonly number[]): Promise<{ question_id: number; room_id: number | null }[]> {
  // The view's columns are nullable as a view's are; a withheld question always has its id.
  let query = kyselyOf(db).selectFrom("exam_withheld_question").select(["question_id", "room_id"]).$narrowType<{ question_id: number }>();
  if (ids) query = query.where(sql<boolean>`question_id = any(${ids}::int[])`);
  return query.execute();
}

/** Whether question `$1` is withheld now: every review op asks (sync/handlers/review.ts), so it is prepared. */
const WITHHELD = prepared<{ withheld: number }, [questionId: number]>("exam.withheld", "select 1 as withheld from exam_withheld_question where question_id = $1 limit 1");

/** Whether an exam withholds the question now. */
export async function isWithheld(db: Queryable, questionId: number): Promise<boolean> {
  return (await runPrepared(db, WITHHELD, [questionId])).rows.length > 0;
}

/** Whether a paper is kept for official exams now (paperWithheld). */
export async function isPaperWithheld(db: Queryable, paperId: number): Promise<boolean> {
  const { rows } = await sql<{ withheld: boolean }>`select ${paperWithheld(sql<number>`${paperId}::int`)} as withheld`.execute(kyselyOf(db));
  return rows[0]?.withheld === true;
}

export interface PaperWithholdingRow {
  id: number;
  withheld: boolean;
  exam_only: boolean;
  /** Official rooms that keep it until they close (soonest first; at most 3). */
  rooms: { title: string; until: number | string }[] | null;
}

/** For each of the papers, whether it is kept for official exams, whether it holds exam-only questions, and the rooms that keep it. */
export async function paperWithholdingRows(db: Queryable, paperIds: readonly number[]): Promise<PaperWithholdingRow[]> {
  const { rows } = await sql<PaperWithholdingRow>`select p.id, ${paperWithheld(sql.ref("p.id"))} as withheld,
       exists (select 1 from exam_paper_row r left join exam_question q on q.id = r.question_id
               join exam_classify c on c.id = coalesce(r.classify_id, q.classify_id) where r.paper_id = p.id and c.kind = 'exam') as exam_only,
       (select json_agg(json_build_object('title', x.title, 'until', x.until) order by x.until) from (
          select m.title, exam_room_closes_at(m.id, m.end_time) as until from exam_room m
          where m.paper_id = p.id and exam_room_closes_at(m.id, m.end_time) > extract(epoch from now())::bigint
          order by 2 limit 3) x) as rooms
     from exam_paper p where p.id = any(${paperIds}::int[])`.execute(kyselyOf(db));
  return rows;
}

/** For each of the practice banks that has some: how many of its enabled questions exams withhold, and the last withholding room's close. */
export async function bankWithholdingRows(db: Queryable, bankIds: readonly number[]): Promise<{ classify_id: number; n: number; until: string }[]> {
  const { rows } = await sql<{ classify_id: number; n: number; until: string }>`select q.classify_id, count(distinct q.id)::int as n, max(exam_room_closes_at(m.id, m.end_time)) as until
     from exam_withheld_question w join exam_question q on q.id = w.question_id join exam_room m on m.id = w.room_id
     where q.classify_id = any(${bankIds}::int[]) and q.status = 'enable' group by q.classify_id`.execute(kyselyOf(db));
  return rows;
}
