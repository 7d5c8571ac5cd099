import type { Op, OpType } from "../../../shared/sync/ops.ts";
import type { BulkOpHandler, OpContext, OpHandler, OpHandlerMap } from "../registry.ts";
import { courseOpHandlers } from "./course.ts";
import { examBulkHandlers, examOpHandlers } from "./exam.ts";
import { leaveOpHandlers } from "./leaves.ts";
import { officialOpHandlers } from "./official.ts";
import { reviewOpHandlers } from "./review.ts";

/** Every op type's handler: the one place a new handler file is registered. */
const handlers: OpHandlerMap<OpType> = { ...examOpHandlers, ...officialOpHandlers, ...leaveOpHandlers, ...courseOpHandlers, ...reviewOpHandlers };

/** The op types this server applies (tests/shared/sync-contract.test.ts holds them to the client's). */
export const HANDLED_OP_TYPES: readonly string[] = Object.keys(handlers);

/** Applies a validated op with its type's handler. */
export function handleOp(ctx: OpContext, op: Op): Promise<void> {
  return (handlers[op.type] as OpHandler<OpType>)(ctx, op as never);
}

/** The op types written together in a batch's quick pass (registry.ts BulkOpHandler). */
const bulkHandlers: Partial<Record<OpType, BulkOpHandler<OpType, unknown>>> = { ...examBulkHandlers } as Partial<Record<OpType, BulkOpHandler<OpType, unknown>>>;

/** The bulk handler of an op's type, if it has one. */
export function bulkHandlerOf(type: OpType): BulkOpHandler<OpType, unknown> | undefined {
  return bulkHandlers[type];
}
