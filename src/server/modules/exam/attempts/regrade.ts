import { msg } from "@lingui/core/macro";
import type { RegradeAttempt, RegradeCandidate, RegradeCandidates, RegradeChange, RegradeOutcome } from "../../../../shared/admin/regrade.ts";
import type { Queryable } from "../../../db/index.ts";
import { ApiError } from "../../../errors.ts";
import { QUESTION_COLUMNS, type QuestionRow } from "../questions.ts";
import { nowSeconds } from "./attempt.ts";
import { gradeAttempt } from "./grading.ts";
import { givenMarks, queueMarks } from "./marks.ts";
import { satIds, satQuestions, snapshotsOf, type AttemptSnapshot, type SatQuestion } from "./snapshot.ts";

/**
 * Regrading a room (after Moodle's quiz regrade): an attempt keeps what it sat
 * (snapshot.ts) until staff say otherwise here. Staff list the questions whose current row
 * differs from what the room's finished attempts sat (`regradeCandidates`), preview the effect of
 * letting the current rows of some of them count (`regradePreview`: each attempt's old and new
 * score and pass, nothing written) and apply it (`applyRegrade`): in the caller's transaction the
 * chosen questions in those attempts' snapshots become the current rows, each attempt is graded
 * again (markers' marks kept) and carries `regraded_at` (migration 0041).
 *
 * Points stay as the attempt was given them: a question's points are the paper's, not the
 * question's, and the attempt's total and pass mark were fixed at its start (they add up to the
 * paper's total it was graded out of). A regrade changes what is right, never what it is worth.
 * Attempts still open keep what they were given (the member is reading it) and are not regraded:
 * once finished they are candidates like the others.
 */

/** The fields of a question that a regrade replaces and compares (what grading and the review read). */
const COMPARED: readonly RegradeChange[] = ["type", "stem", "options", "answer", "analysis"];

/** SQL: the snapshot element `e` differs from the live row `q` in the compared fields (jsonb equality: key order does not count). */
const DIFFERS_SQL = `(e -> 'type' is distinct from to_jsonb(q.type) or e -> 'stem' is distinct from to_jsonb(q.stem)
  or e -> 'options' is distinct from q.options or e -> 'answer' is distinct from q.answer or e -> 'analysis' is distinct from to_jsonb(q.analysis))`;

/** The room (locked with `lock`), or a refusal. */
async function roomOf(db: Queryable, roomId: number, lock = false): Promise<{ id: number; title: string }> {
  const room = (await db.query<{ id: number; title: string }>(`select id, title from exam_room where id = $1${lock ? " for update" : ""}`, [roomId])).rows[0];
  if (!room) throw new ApiError(msg`This exam room does not exist`);
  return room;
}

/** The questions of the room's finished attempts whose current row differs from the version some attempt sat, with what differs. */
export async function regradeCandidates(db: Queryable, roomId: number): Promise<RegradeCandidates> {
  const room = await roomOf(db, roomId);
  // Attempts made before snapshots existed get theirs now (from today's rows: nothing to regrade).
  const finished = (await db.query<{ id: number }>("select id from exam_attempt where room_id = $1 and status <> 'open'", [roomId])).rows.map((r) => r.id);
  await snapshotsOf(db, finished, { gradingOnly: true });
  const { rows } = await db.query<{
    id: number;
    stem: string;
    type: string;
    question_score: string;
    attempts: number;
    min_points: string;
    max_points: string;
    d_type: boolean;
    d_stem: boolean;
    d_options: boolean;
    d_answer: boolean;
    d_analysis: boolean;
  }>(
    `select q.id, q.stem, q.type, q.score as question_score, count(distinct a.id)::int as attempts,
       min((e ->> 'score')::numeric) as min_points, max((e ->> 'score')::numeric) as max_points,
       bool_or(e -> 'type' is distinct from to_jsonb(q.type)) as d_type,
       bool_or(e -> 'stem' is distinct from to_jsonb(q.stem)) as d_stem,
       bool_or(e -> 'options' is distinct from q.options) as d_options,
       bool_or(e -> 'answer' is distinct from q.answer) as d_answer,
       bool_or(e -> 'analysis' is distinct from to_jsonb(q.analysis)) as d_analysis
     from exam_attempt a
     join exam_attempt_snapshot s on s.attempt_id = a.id
     cross join lateral jsonb_array_elements(s.questions) as x(e)
     join exam_question q on q.id = (e ->> 'id')::int
     where a.room_id = $1 and a.status <> 'open' and e ->> 'missing' is null and ${DIFFERS_SQL}
     group by q.id order by q.id`,
    [roomId],
  );
  const open = (await db.query<{ n: number }>("select count(*)::int as n from exam_attempt where room_id = $1 and status = 'open'", [roomId])).rows[0]!.n;
  const candidates = rows.map(
    (r): RegradeCandidate => ({
      questionId: r.id,
      stem: r.stem,
      type: r.type,
      attempts: r.attempts,
      changes: COMPARED.filter((c) => r[`d_${c}`]),
      points: { min: Number(r.min_points), max: Number(r.max_points) },
      questionScore: Number(r.question_score),
    }),
  );
  return { room, candidates, openAttempts: open };
}

type FinishedAttempt = { id: number; answers: Record<string, unknown>; score: string | null; passed: boolean | null; username: string; nickname: string | null };

/** A sat question as its current row, with the points the attempt was given. */
function asCurrent(sat: SatQuestion, live: QuestionRow): SatQuestion {
  return {
    id: live.id,
    classify_id: live.classify_id,
    type: live.type,
    stem: live.stem,
    options: live.options,
    answer: live.answer,
    analysis: live.analysis,
    difficulty: live.difficulty,
    score: sat.score,
    version: live.version,
  };
}

/** Key-order-free JSON text, so a sat copy and the current row compare as PostgreSQL's jsonb does. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

const differs = (sat: SatQuestion, live: QuestionRow) => COMPARED.some((f) => canonical(sat[f]) !== canonical(live[f]));

interface Plan {
  outcome: RegradeOutcome;
  /** Attempt id -> its new snapshot and grade. */
  writes: Map<number, { snapshot: AttemptSnapshot; grade: ReturnType<typeof gradeAttempt> }>;
}

/**
 * What letting the current rows of `questionIds` count would do to the room's finished attempts
 * (`lock`: the attempts are locked for the apply). Attempts whose snapshots already hold those
 * versions are left out; an attempt's marks count as they do in every grading.
 */
async function plan(db: Queryable, roomId: number, questionIds: readonly number[], lock: boolean): Promise<Plan> {
  const chosen = [...new Set(questionIds)];
  const live = new Map(
    (await db.query<QuestionRow>(`select ${QUESTION_COLUMNS} from exam_question where id = any($1::int[])`, [chosen])).rows.map((q) => [q.id, q]),
  );
  const gone = chosen.filter((id) => !live.has(id));
  if (gone.length > 0) throw new ApiError(msg`Some chosen questions no longer exist: ${gone.join(", ")}`);
  const attempts = (
    await db.query<FinishedAttempt>(
      `select a.id, a.answers, a.score, a.passed, m.username, m.nickname from exam_attempt a join member m on m.id = a.user_id
       where a.room_id = $1 and a.status <> 'open' order by a.id${lock ? " for update of a" : ""}`,
      [roomId],
    )
  ).rows;
  const sat = await snapshotsOf(
    db,
    attempts.map((a) => a.id),
  );
  const writes: Plan["writes"] = new Map();
  const changed: RegradeAttempt[] = [];
  for (const a of attempts) {
    const held = sat.get(a.id);
    if (!held) continue;
    const touched: number[] = [];
    const questions = held.questions.map((q) => {
      if (q.missing) return q;
      const row = live.get(q.id);
      if (!row || !differs(q, row)) return q;
      touched.push(q.id);
      return asCurrent(q, row);
    });
    if (touched.length === 0) continue;
    const snapshot: AttemptSnapshot = { paper: held.paper, questions };
    const grade = gradeAttempt(
      satQuestions(snapshot),
      a.answers,
      { partialCredit: held.paper.partialCredit, passScore: held.paper.passScore },
      satIds(snapshot),
      await givenMarks(db, a.id),
    );
    writes.set(a.id, { snapshot, grade });
    changed.push({
      attemptId: a.id,
      username: a.username,
      nickname: a.nickname ?? "",
      oldScore: Number(a.score ?? 0),
      newScore: grade.score,
      oldPassed: a.passed === true,
      newPassed: grade.passed,
      questions: touched,
    });
  }
  return {
    writes,
    outcome: {
      attempts: changed,
      summary: {
        attempts: changed.length,
        scoreChanged: changed.filter((c) => c.oldScore !== c.newScore).length,
        nowPassed: changed.filter((c) => !c.oldPassed && c.newPassed).length,
        nowFailed: changed.filter((c) => c.oldPassed && !c.newPassed).length,
      },
      regradedAt: null,
    },
  };
}

/** The dry run: each finished attempt the regrade would change, with its old and new score and pass. Writes nothing. */
export async function regradePreview(db: Queryable, roomId: number, questionIds: readonly number[]): Promise<RegradeOutcome> {
  await roomOf(db, roomId);
  return (await plan(db, roomId, questionIds, false)).outcome;
}

/**
 * Applies a regrade in the caller's transaction (the back office's action, with its admin log
 * row): the room row is locked (two regrades of a room run one after the other), then its finished
 * attempts; each attempt whose snapshot holds another version of a chosen question gets the
 * current row (its points kept), its new score, pass and review flag, answers that now need a
 * marker queued, and `regraded_at`. Nothing to change (e.g. a retried request) is refused, so a
 * retry changes nothing and logs nothing.
 */
export async function applyRegrade(tx: Queryable, roomId: number, questionIds: readonly number[]): Promise<RegradeOutcome> {
  await roomOf(tx, roomId, true);
  const { outcome, writes } = await plan(tx, roomId, questionIds, true);
  if (writes.size === 0) throw new ApiError(msg`Every finished attempt already counts the current version of these questions: nothing to regrade`);
  const at = nowSeconds();
  for (const [attemptId, { snapshot, grade }] of writes) {
    await tx.query("update exam_attempt_snapshot set questions = $1 where attempt_id = $2", [JSON.stringify(snapshot.questions), attemptId]);
    await tx.query("update exam_attempt set score = $1, passed = $2, needs_review = $3, regraded_at = $4 where id = $5", [grade.score, grade.passed, grade.needsReview, at, attemptId]);
    // Answers that now wait for a marker are queued; a queued one grading now decides leaves the queue (given marks stay).
    await queueMarks(tx, attemptId, grade.results);
    const decided = Object.entries(grade.results).filter(([, r]) => r.correct !== null).map(([id]) => Number(id));
    if (decided.length > 0) await tx.query("delete from exam_mark where attempt_id = $1 and status = 'pending' and question_id = any($2::int[])", [attemptId, decided]);
  }
  return { ...outcome, regradedAt: at };
}
