import { msg } from "@lingui/core/macro";
import { DEFAULT_RETENTION, replayCard, type CardState, type ReviewLogEntry } from "../../../shared/exam/review.ts";
import type { ReviewState } from "../../../shared/sync/review.ts";
import type { Queryable } from "../../db/index.ts";
import { isWithheld } from "../../modules/exam/withheld.ts";
import { RejectOp, type OpHandlerMap } from "../registry.ts";
import { cardLogs, insertReviewLog, lockCard, practisedQuestionOpen, reviewStateRows, setRetention, updateCard, type LogRow } from "./repository.ts";

/**
 * The spaced-review ops (src/shared/sync/review.ts, rules in src/shared/exam/review.ts):
 * `review.answer` adds a log row (once per op id: sync_op already, the log's key again) and
 * recomputes its card as the FSRS replay of ALL its logs in (at, op_id) order, under the card
 * row's lock; so the card is the same whatever order two devices' ops arrive in, and the same
 * as the device computes. `review.retention`: last writer wins by (at, op_id).
 */

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
  const card = replayCard(questionId, (await cardLogs(tx, userId, questionId)).map(toLog));
  await updateCard(tx, userId, questionId, card);
  return card;
}

export const reviewOpHandlers: OpHandlerMap<"review.answer" | "review.retention"> = {
  async "review.answer"({ tx, userId }, op) {
    const { questionId, correct, grade, retention } = op.payload;
    // Only a question the member may practise (an open bank's enabled question).
    if (!(await practisedQuestionOpen(tx, questionId, userId))) throw new RejectOp(msg`Unknown question`);
    if (await isWithheld(tx, questionId)) throw new RejectOp(msg`This question is kept for an exam and cannot be practised now`);
    // The card row is the lock: concurrent reviews of one card replay one after the other, and
    // each statement after the lock sees the logs committed before it (read committed).
    await lockCard(tx, userId, questionId);
    await insertReviewLog(tx, userId, { opId: op.id, questionId, correct, grade, retention, at: op.at });
    await storeCard(tx, userId, questionId);
  },

  async "review.retention"({ tx, userId }, op) {
    await setRetention(tx, userId, op.payload.retention, op.at, op.id);
  },
};

/** The member's desired retention and review logs (the wire shape of `GET /api/exam/review/state`). */
export async function reviewState(db: Queryable, userId: number): Promise<ReviewState> {
  const { setting: row, logs } = await reviewStateRows(db, userId);
  return {
    retention: row ? Number(row.retention) : DEFAULT_RETENTION,
    retentionAt: row ? Number(row.at) : 0,
    logs: logs.map(toLog),
  };
}
