import { msg } from "@lingui/core/macro";
import { MAX_PAGE_LEAVES } from "../../../shared/exam/pageLeaves.ts";
import { recordPageLeave } from "../../modules/exam/attempts/leaves.ts";
import { RejectOp, type OpHandlerMap } from "../registry.ts";

/**
 * `official.leave`: the official exam page was hidden and shown again, with when on the server's
 * clock; the exam module's rules decide (modules/exam/attempts/leaves.ts: the member's own
 * attempt, within its time, once per departure, a bounded number per attempt).
 */
export const leaveOpHandlers: OpHandlerMap<"official.leave"> = {
  async "official.leave"({ tx, userId }, op) {
    const outcome = await recordPageLeave(tx, userId, op.payload);
    if (outcome === "unknown-attempt") throw new RejectOp(msg`This exam record does not exist`);
    if (outcome === "outside-attempt") throw new RejectOp(msg`This page leave is outside the exam's time`);
    if (outcome === "full") throw new RejectOp(msg`This exam already records ${MAX_PAGE_LEAVES} page leaves, the most it keeps`);
  },
};
