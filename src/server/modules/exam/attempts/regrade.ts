import { msg } from "@lingui/core/macro";
import type { RegradeAttempt, RegradeCandidate, RegradeCandidates, RegradeChange, RegradeOutcome } from "../../../../shared/admin/regrade.ts";
import type { Queryable } from "../../../db/index.ts";
import { ApiError } from "../../../errors.ts";
import type { QuestionRow } from "../questions.ts";
import { attemptGraded } from "../../certificate/issue.ts";
import { nowSeconds } from "./attempt.ts";
import { gradeAttempt } from "./grading.ts";
import { givenMarks, queueMarks } from "./marks.ts";
import { satIds, satQuestions, snapshotsOf, type AttemptSnapshot, type SatQuestion } from "./snapshot.ts";
import {
  dropPendingMarks,
  finishedAttemptIds,
  finishedAttempts,
  openAttemptCount,
  questionsByIds,
  regradeCandidateRows,
  roomTitle,
  setRegradedGrade,
  setSnapshotQuestions,
} from "./repository.ts";

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

/** The room (locked with `lock`), or a refusal. */
async function roomOf(db: Queryable, roomId: number, lock = false): Promise<{ id: number; title: string }> {
  const room = await roomTitle(db, roomId, lock);
  if (!room) throw new ApiError(msg`This exam room does not exist`);
  return room;
}

/** The questions of the room's finished attempts whose current row differs from the version some attempt sat, with what differs. */
export async function regradeCandidates(db: Queryable, roomId: number): Promise<RegradeCandidates> {
  const room = await roomOf(db, roomId);
  // Attempts made before snapshots existed get theirs now (from today's rows: nothing to regrade).
  const finished = await finishedAttemptIds(db, roomId);
  await snapshotsOf(db, finished, { gradingOnly: true });
  const rows = await regradeCandidateRows(db, roomId);
  const open = await openAttemptCount(db, roomId);
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
  const live = new Map((await questionsByIds(db, chosen)).map((q) => [q.id, q]));
  const gone = chosen.filter((id) => !live.has(id));
  if (gone.length > 0) throw new ApiError(msg`Some chosen questions no longer exist: ${gone.join(", ")}`);
  const attempts = await finishedAttempts(db, roomId, lock);
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
    await setSnapshotQuestions(tx, attemptId, snapshot.questions);
    await setRegradedGrade(tx, attemptId, grade, at);
    // Answers that now wait for a marker are queued; a queued one grading now decides leaves the queue (given marks stay).
    await queueMarks(tx, attemptId, grade.results);
    const decided = Object.entries(grade.results).filter(([, r]) => r.correct !== null).map(([id]) => Number(id));
    if (decided.length > 0) await dropPendingMarks(tx, attemptId, decided);
    // A pass issues (or restores) the room's certificate; a fail revokes one this attempt earned (certificate/issue.ts).
    await attemptGraded(tx, attemptId);
  }
  return { ...outcome, regradedAt: at };
}
