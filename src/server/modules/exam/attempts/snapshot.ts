import type { Queryable } from "../../../db/index.ts";
import type { QuestionRow } from "../questions.ts";
import type { PaperQuestion } from "./papers.ts";

/**
 * What an attempt sat (`exam_attempt_snapshot`, migration 0038): each question as it was given
 * (text, options in the order given, answer key, analysis) with the points the paper gave it, in
 * the order given, and the paper's grading rules at the start. Written once when the attempt is
 * made (official start, a mock attempt graded on the server), never updated. Grading, the
 * member's record and review, marking, late-answer decisions and room results read only this:
 * nothing staff do later to questions, banks, papers or their rows changes what was sat.
 */

/** A question as sat: a question row whose `score` is the points the paper gave it. */
export type SatQuestion = QuestionRow & { missing?: undefined };
/** A question deleted before its attempt had a snapshot (migration 0038's backfill): its id and points only. */
export interface MissingQuestion {
  id: number;
  score: number;
  missing: true;
}

export interface AttemptSnapshot {
  paper: { totalScore: number; passScore: number; partialCredit: boolean };
  questions: (SatQuestion | MissingQuestion)[];
}

/** Stores what an attempt is given: `questions` in the order given, each with the paper's points. */
export async function saveSnapshot(db: Queryable, attemptId: number, paper: AttemptSnapshot["paper"], questions: readonly PaperQuestion[]): Promise<void> {
  await db.query("insert into exam_attempt_snapshot (attempt_id, paper, questions) values ($1, $2, $3) on conflict (attempt_id) do nothing", [
    attemptId,
    snapshotPaperJson(paper),
    JSON.stringify(asSat(questions)),
  ]);
}

/** The paper's grading rules as a snapshot holds them (JSON text). */
export const snapshotPaperJson = (paper: AttemptSnapshot["paper"]): string =>
  JSON.stringify({ totalScore: Number(paper.totalScore), passScore: Number(paper.passScore), partialCredit: paper.partialCredit });

/** The questions as a snapshot holds them: each row as given with the paper's points, in the order given. */
export function asSat(questions: readonly PaperQuestion[]): SatQuestion[] {
  return questions.map(({ row, score }): SatQuestion => ({
    id: row.id,
    classify_id: row.classify_id,
    type: row.type,
    stem: row.stem,
    options: row.options,
    answer: row.answer,
    analysis: row.analysis,
    difficulty: row.difficulty,
    score: Number(score),
    version: row.version,
  }));
}

/**
 * Snapshots for attempts made without one (before migration 0038 ran on them, or written by
 * other means): the same rule as that migration's backfill, from what the database holds now.
 */
const FREEZE_SQL = `insert into exam_attempt_snapshot (attempt_id, paper, questions)
select a.id,
  jsonb_build_object('totalScore', p.total_score, 'passScore', coalesce(r.pass_score, p.pass_score), 'partialCredit', p.partial_credit),
  coalesce((
    select jsonb_agg(
      case when q.id is null
        then jsonb_build_object('id', (e.item ->> 'id')::int, 'score', coalesce((e.item ->> 'score')::numeric, 0), 'missing', true)
        else jsonb_build_object('id', q.id, 'classify_id', q.classify_id, 'type', q.type, 'stem', q.stem, 'options', q.options, 'answer', q.answer,
          'analysis', q.analysis, 'difficulty', q.difficulty, 'version', q.version,
          'score', coalesce((e.item ->> 'score')::numeric,
            (select pr.score from exam_paper_row pr where pr.paper_id = a.paper_id
               and ((pr.kind = 'fixed' and pr.question_id = q.id)
                 or (pr.kind = 'draw' and pr.classify_id = q.classify_id and pr.question_type = q.type
                     and (pr.difficulty is null or pr.difficulty = q.difficulty) and q.status = 'enable'))
             order by pr.weigh, pr.id desc limit 1),
            q.score))
      end order by e.n)
    from jsonb_array_elements(a.questions) with ordinality as e(item, n)
    left join exam_question q on q.id = (e.item ->> 'id')::int
  ), '[]'::jsonb)
from exam_attempt a
join exam_paper p on p.id = a.paper_id
left join exam_room r on r.id = a.room_id
where a.id = any($1::int[])
on conflict (attempt_id) do nothing`;

type StoredSnapshot = { paper: { totalScore: number | string; passScore: number | string; partialCredit: boolean }; questions: (SatQuestion | MissingQuestion)[] };

function normalise(s: StoredSnapshot): AttemptSnapshot {
  return {
    paper: { totalScore: Number(s.paper.totalScore), passScore: Number(s.paper.passScore), partialCredit: s.paper.partialCredit === true },
    questions: s.questions.map((q) => ({ ...q, score: Number(q.score) })),
  };
}

/** Only what grading reads of each question (a room's results read thousands of snapshots: not their texts). */
const GRADING_FIELDS = `coalesce((select jsonb_agg(jsonb_strip_nulls(jsonb_build_object('id', e -> 'id', 'type', e -> 'type', 'answer', e -> 'answer',
  'score', e -> 'score', 'missing', e -> 'missing', 'classify_id', e -> 'classify_id', 'difficulty', e -> 'difficulty', 'version', e -> 'version', 'stem', '', 'analysis', '', 'options', '[]'::jsonb))
  order by n) from jsonb_array_elements(questions) with ordinality as x(e, n)), '[]'::jsonb)`;

/**
 * The snapshots of the given attempts, by attempt id (one made from what is there now for an
 * attempt that has none). `gradingOnly`: each question's texts (stem, options, analysis) left
 * empty, for grading many attempts at once.
 */
export async function snapshotsOf(db: Queryable, attemptIds: readonly number[], options: { gradingOnly?: boolean } = {}): Promise<Map<number, AttemptSnapshot>> {
  if (attemptIds.length === 0) return new Map();
  const read = async () =>
    (
      await db.query<StoredSnapshot & { attempt_id: number }>(
        `select attempt_id, paper, ${options.gradingOnly ? GRADING_FIELDS : "questions"} as questions from exam_attempt_snapshot where attempt_id = any($1::int[])`,
        [attemptIds],
      )
    ).rows;
  let rows = await read();
  if (rows.length < new Set(attemptIds).size) {
    const have = new Set(rows.map((r) => r.attempt_id));
    await db.query(FREEZE_SQL, [attemptIds.filter((id) => !have.has(id))]);
    rows = await read();
  }
  return new Map(rows.map((r) => [r.attempt_id, normalise(r)]));
}

/** One attempt's snapshot (see snapshotsOf); null only when the attempt itself is gone. */
export async function snapshotOf(db: Queryable, attemptId: number): Promise<AttemptSnapshot | null> {
  return (await snapshotsOf(db, [attemptId])).get(attemptId) ?? null;
}

/** The questions an attempt sat that can be graded (not deleted before 0038), by id, with the paper's points: what `gradeAttempt` takes. */
export function satQuestions(snapshot: AttemptSnapshot): Map<number, PaperQuestion> {
  const out = new Map<number, PaperQuestion>();
  for (const q of snapshot.questions) if (!q.missing) out.set(q.id, { row: q, score: q.score });
  return out;
}

/** The ids of the questions an attempt sat, in the order given (missing ones too). */
export const satIds = (snapshot: AttemptSnapshot): number[] => snapshot.questions.map((q) => q.id);

/** Question id -> its stem and type as first sat among the given attempts (a room's item analysis). */
export async function satStems(db: Queryable, attemptIds: readonly number[]): Promise<Map<number, { stem: string; type: string }>> {
  if (attemptIds.length === 0) return new Map();
  const { rows } = await db.query<{ id: number; stem: string; type: string }>(
    `select distinct on ((e ->> 'id')::int) (e ->> 'id')::int as id, e ->> 'stem' as stem, e ->> 'type' as type
     from exam_attempt_snapshot s, jsonb_array_elements(s.questions) with ordinality as x(e, n)
     where s.attempt_id = any($1::int[]) and e ->> 'missing' is null
     order by (e ->> 'id')::int, s.attempt_id`,
    [attemptIds],
  );
  return new Map(rows.map((r) => [r.id, { stem: r.stem, type: r.type }]));
}
