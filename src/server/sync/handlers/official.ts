import { msg } from "@lingui/core/macro";
import { officialAnswerOp } from "../../modules/exam/attempts/index.ts";
import { RejectOp, type OpHandlerMap } from "../registry.ts";

/**
 * `official.answer`: an answer of an official exam made on the device, with when it was made on
 * the server's clock; the exam module's rules decide (modules/exam/attempts/official.ts: in
 * time, late for a marker, or refused by the room's late policy).
 */
export const officialOpHandlers: OpHandlerMap<"official.answer"> = {
  async "official.answer"({ tx, userId }, op) {
    const outcome = await officialAnswerOp(tx, userId, op.payload);
    if (outcome === "unknown-attempt") throw new RejectOp(msg`This exam record does not exist`);
    if (outcome === "not-in-attempt") throw new RejectOp(msg`This question is not part of this exam`);
    if (outcome === "submitted") throw new RejectOp(msg`This exam has already been submitted`);
    if (outcome === "refused") throw new RejectOp(msg`The time for this exam is up: answers that reached the server after the deadline were not accepted.`);
  },
};
