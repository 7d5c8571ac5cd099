import { msg } from "@lingui/core/macro";
import { DEFAULT_RETENTION, replayCard, type CardState, type ReviewLogEntry } from "../../../shared/exam/review.ts";
import type { ReviewState } from "../../../shared/sync/review.ts";
import type { Queryable } from "../../db/index.ts";
import { PRACTISED } from "../../modules/exam/questions.ts";
import { isWithheld } from "../../modules/exam/withheld.ts";
import { visibleSql } from "../../modules/org/visibility.ts";
import { RejectOp, type OpHandlerMap } from "../registry.ts";

/**
 * The spaced-review ops (src/shared/sync/review.ts, rules in src/shared/exam/review.ts):
 * `review.answer` adds a log row (once per op id: sync_op already, the log's key again) and
 * recomputes its card as the FSRS replay of ALL its logs in (at, op_id) order, under the card
 * row's lock; so the card is the same whatever order two devices' ops arrive in, and the same
 * as the device computes. `review.retention`: last writer wins by (at, op_id).
 */

interface LogRow {
  op_id: string;
  question_id: number;
  at: string | number;
  correct: boolean;
  grade: "hard" | "easy" | null;
  retention: string | number;
}

const toLog = (r: LogRow): ReviewLogEntry => ({
  opId: r.op_id,
  questionId: r.question_id,
  at: Number(r.at),
  correct: r.correct,
  grade: r.grade,
  retention: Number(r.retention),
});

/** Replays a member's card from its logs and stores it (the caller holds the card row's lock). */
async function storeCard(tx: Queryable, userId: number, questionId: number): Promise<CardState> {
  const { rows } = await tx.query<LogRow>(
    "select op_id, question_id, at, correct, grade, retention from exam_review_log where user_id = $1 and question_id = $2",
    [userId, questionId],
  );
  const card = replayCard(questionId, rows.map(toLog));
  await tx.query(
    `update exam_review_card set due = $3, stability = $4, difficulty = $5, state = $6, reps = $7, lapses = $8,
       scheduled_days = $9, learning_steps = $10, last_review = $11, streak = $12, streak_since = $13
     where user_id = $1 and question_id = $2`,
    [userId, questionId, card.due, card.stability, card.difficulty, card.state, card.reps, card.lapses, card.scheduledDays, card.learningSteps, card.lastReview, card.streak, card.streakSince],
  );
  return card;
}

export const reviewOpHandlers: OpHandlerMap<"review.answer" | "review.retention"> = {
  async "review.answer"({ tx, userId }, op) {
    const { questionId, correct, grade, retention } = op.payload;
    // Only a question the member may practise (an open bank's enabled question).
    const { rows } = await tx.query(
      `select 1 from exam_question q where q.id = $1 and ${PRACTISED} and ${visibleSql("bank", "q.classify_id", "$2")}`,
      [questionId, userId],
    );
    if (rows.length === 0) throw new RejectOp(msg`Unknown question`);
    if (await isWithheld(tx, questionId)) throw new RejectOp(msg`This question is kept for an exam and cannot be practised now`);
    // The card row is the lock: concurrent reviews of one card replay one after the other, and
    // each statement after the lock sees the logs committed before it (read committed).
    await tx.query("insert into exam_review_card (user_id, question_id) values ($1, $2) on conflict do nothing", [userId, questionId]);
    await tx.query("select 1 from exam_review_card where user_id = $1 and question_id = $2 for update", [userId, questionId]);
    await tx.query(
      "insert into exam_review_log (user_id, op_id, question_id, correct, grade, retention, at) values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing",
      [userId, op.id, questionId, correct, grade, retention, op.at],
    );
    await storeCard(tx, userId, questionId);
  },

  async "review.retention"({ tx, userId }, op) {
    await tx.query(
      `insert into exam_review_setting (user_id, retention, at, op_id) values ($1, $2, $3, $4)
       on conflict (user_id) do update set retention = excluded.retention, at = excluded.at, op_id = excluded.op_id
       where (excluded.at, excluded.op_id collate "C") > (exam_review_setting.at, exam_review_setting.op_id collate "C")`,
      [userId, op.payload.retention, op.at, op.id],
    );
  },
};

/** The member's desired retention and review logs (the wire shape of `GET /api/exam/review/state`). */
export async function reviewState(db: Queryable, userId: number): Promise<ReviewState> {
  const setting = await db.query<{ retention: string | number; at: string | number }>("select retention, at from exam_review_setting where user_id = $1", [userId]);
  const logs = await db.query<LogRow>(
    `select op_id, question_id, at, correct, grade, retention from exam_review_log where user_id = $1 order by at, op_id collate "C"`,
    [userId],
  );
  const row = setting.rows[0];
  return {
    retention: row ? Number(row.retention) : DEFAULT_RETENTION,
    retentionAt: row ? Number(row.at) : 0,
    logs: logs.rows.map(toLog),
  };
}
