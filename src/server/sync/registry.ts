import type { MessageDescriptor } from "@lingui/core";
import type { OpOf, OpType } from "../../shared/sync/ops.ts";
import type { Queryable } from "../db/index.ts";

/**
 * Op handlers of the sync protocol (src/shared/sync/ops.ts). A handler applies one validated op
 * for a member inside the transaction that recorded the op's id (so it runs once per op id), and
 * refuses a payload it cannot accept by throwing RejectOp (the op is answered `rejected` with the
 * reason, translated). Each domain has its own file in handlers/; handlers/index.ts registers
 * them all.
 */
export interface OpContext {
  /** The op's own transaction. */
  tx: Queryable;
  /** The member whose op it is. */
  userId: number;
  /**
   * What the batch's ops will read, loaded once for the batch (one round trip instead of one per
   * op): the practice answers' questions, by id (absent: not open to the member).
   * Ops never change these rows, so a read at the start of the batch is the read each op would
   * have made. A handler falls back to its own query when an entry was not loaded.
   */
  batch?: BatchReads;
}

export interface BatchReads {
  practiceQuestions: Map<number, unknown>;
}

export type OpHandler<T extends OpType> = (ctx: OpContext, op: OpOf<T>) => Promise<void>;

/** A handler for each op type of a domain (a subset of the op types). */
export type OpHandlerMap<T extends OpType> = { [K in T]: OpHandler<K> };

/**
 * An op type whose fresh ops are written together in a batch's quick pass (sync/routes.ts): `judge`
 * checks one op as its handler would (throwing RejectOp) and answers what to write; `write`
 * writes what the batch's ops of that type answered, in one statement, after the batch's other
 * ops. Only for ops that commute with every other op of a batch (what they change is a sum, a
 * greatest or a row of their own), so writing them last leaves the state writing each in its
 * place would. The careful pass, and a lone op, still go through the op's handler.
 */
export interface BulkOpHandler<T extends OpType, R> {
  judge(ctx: OpContext, op: OpOf<T>): Promise<R>;
  write(ctx: OpContext, rows: R[]): Promise<void>;
}

/** A payload the server refuses: the op is answered `rejected` with this message (shown to the member, translated). */
export class RejectOp extends Error {
  constructor(readonly reason: MessageDescriptor) {
    super(reason.message ?? reason.id);
  }
}
