import type { Op, OpType } from "../../../shared/sync/ops.ts";
import type { OpContext, OpHandler, OpHandlerMap } from "../registry.ts";
import { courseOpHandlers } from "./course.ts";
import { examOpHandlers } from "./exam.ts";
import { officialOpHandlers } from "./official.ts";
import { reviewOpHandlers } from "./review.ts";

/** Every op type's handler: the one place a new handler file is registered. */
const handlers: OpHandlerMap<OpType> = { ...examOpHandlers, ...officialOpHandlers, ...courseOpHandlers, ...reviewOpHandlers };

/** Applies a validated op with its type's handler. */
export function handleOp(ctx: OpContext, op: Op): Promise<void> {
  return (handlers[op.type] as OpHandler<OpType>)(ctx, op as never);
}
