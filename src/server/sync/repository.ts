import type { MessageDescriptor } from "@lingui/core";
import type { Op } from "../../shared/sync/ops.ts";
import { prepared, runPrepared, type Queryable } from "../db/index.ts";

/**
 * The sync log's statements (`sync_op`), run in a batch's transaction by routes.ts. Prepared: every
 * batch of every practising member runs them.
 */

/**
 * Why a recorded op was rejected, as sync_op.rejected_msg keeps it: a message key and its
 * parameters (a Lingui descriptor without its comment), or a final string; rendered per request.
 */
export type StoredRejection = Pick<MessageDescriptor, "id" | "message" | "values"> | string;

/**
 * Records the op ids of a batch in one statement (inside the batch's transaction), in op id order
 * so that two batches sharing ids lock them in the same order. Answers the ids that were new:
 * each of those ops is applied once, every other one (sent before, or twice in this batch) is a
 * `duplicate`.
 */
const RECORD_OPS = prepared<{ op_id: string }, [userId: number, ids: string[], types: string[], at: number[]]>(
  "sync.op.record",
  `insert into sync_op (user_id, op_id, type, at)
   select $1, o.id, o.type, o.at from unnest($2::text[], $3::text[], $4::bigint[]) as o (id, type, at) order by o.id
   on conflict do nothing returning op_id`,
);

export async function recordOps(tx: Queryable, userId: number, ops: Op[]): Promise<Set<string>> {
  if (ops.length === 0) return new Set();
  const { rows } = await runPrepared(tx, RECORD_OPS, [userId, ops.map((o) => o.id), ops.map((o) => o.type), ops.map((o) => o.at)]);
  return new Set(rows.map((r) => r.op_id));
}

/**
 * The rejection answered when an op is sent again (sync_op.rejected_msg of the ops already
 * recorded; an op without one was applied: its replay is `duplicate`). Read in a statement of its
 * own after the ops were recorded, so it sees the answer of a batch that recorded them at the same
 * time (the insert waited for it to commit).
 */
const RECORDED_REJECTIONS = prepared<{ op_id: string; rejected_msg: StoredRejection }, [userId: number, ids: string[]]>(
  "sync.op.rejections",
  "select op_id, rejected_msg from sync_op where user_id = $1 and op_id = any($2::text[]) and rejected_msg is not null",
);

export async function recordedRejections(tx: Queryable, userId: number, ids: string[]): Promise<Map<string, StoredRejection>> {
  if (ids.length === 0) return new Map();
  const { rows } = await runPrepared(tx, RECORDED_REJECTIONS, [userId, ids]);
  return new Map(rows.map((r) => [r.op_id, r.rejected_msg]));
}

/** Keeps why the batch's rejected ops were rejected, in one statement, for their replays. */
const RECORD_REJECTIONS = prepared<never, [userId: number, ids: string[], messages: string[]]>(
  "sync.op.reject",
  `update sync_op s set rejected_msg = r.msg
   from unnest($2::text[], $3::jsonb[]) as r (id, msg) where s.user_id = $1 and s.op_id = r.id`,
);

export async function recordRejections(tx: Queryable, userId: number, rejected: Map<string, StoredRejection>): Promise<void> {
  if (rejected.size === 0) return;
  const ids = [...rejected.keys()];
  await runPrepared(tx, RECORD_REJECTIONS, [userId, ids, ids.map((id) => JSON.stringify(rejected.get(id)))]);
}
