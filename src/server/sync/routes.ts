import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import { MAX_OPS_PER_SYNC, rawOpId, type SyncResult } from "../../shared/sync/protocol.ts";
import { parseOp, type Op } from "../../shared/sync/ops.ts";
import type { Queryable } from "../db/index.ts";
import { classifyDbError, loggableError } from "../db/errors.ts";
import { ApiError } from "../errors.ts";
import { requireMember } from "../plugins/auth.ts";
import { handleOp } from "./handlers/index.ts";
import { examState } from "./handlers/exam.ts";
import { reviewState } from "./handlers/review.ts";
import { RejectOp } from "./registry.ts";

/**
 * Applies one op for a member, exactly once: the op id is recorded in the same transaction (and
 * savepoint) as its type's handler runs (handlers/), so a replay is a `duplicate`.
 */
async function applyOnce(tx: Queryable, userId: number, op: Op): Promise<"applied" | "duplicate"> {
  const recorded = await tx.query(
    "insert into sync_op (user_id, op_id, type, at) values ($1, $2, $3, $4) on conflict do nothing returning op_id",
    [userId, op.id, op.type, op.at],
  );
  if (recorded.rows.length === 0) return "duplicate";
  await handleOp({ tx, userId }, op);
  return "applied";
}

/**
 * Why an op that failed while being applied (its transaction rolled back) is rejected. A
 * refusal of the rules (RejectOp, ApiError) says why; anything else (a value the database
 * refused, a constraint, a bug) is logged with the op's id and type and the error's SQLSTATE or
 * stack, never the op's payload (the member's answers), and answered with a generic reason.
 * Such ops are recorded like every answered op, so the device never sends them again and one
 * bad op never holds back the ops behind it.
 */
function rejection(error: unknown, op: Op, req: FastifyRequest): string {
  if (error instanceof RejectOp) return req.t(error.reason);
  if (error instanceof ApiError) return req.t(error.msgDescriptor);
  req.log.error({ opId: op.id, opType: op.type, error: loggableError(error) }, "sync op failed");
  return req.t(msg`The server could not apply this change`);
}

/** A strong validator of an answer's data: the same data, the same tag (whoever asks). */
export function contentTag(data: unknown): string {
  return `"state-${createHash("sha256").update(JSON.stringify(data)).digest("base64url").slice(0, 27)}"`;
}

/** Whether an `If-None-Match` header lists `etag` (or `*`); weak tags compare equal. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const tag = part.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

/** `POST /api/exam/sync`, `GET /api/exam/state` and `GET /api/exam/review/state` (API.md "Offline sync"). */
export async function syncRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  // Each op is judged on its own, NUL and unpaired surrogates included (the envelope's
  // whole-request check would refuse the batch).
  app.post("/api/exam/sync", { config: { auth: "member", judgesTextPerItem: true } }, async (req, reply) => {
    const member = await requireMember(db, req);
    const ops = (req.body as { ops?: unknown } | null)?.ops;
    if (!Array.isArray(ops) || ops.length === 0 || ops.length > MAX_OPS_PER_SYNC) {
      throw new ApiError(msg`Send between 1 and ${MAX_OPS_PER_SYNC} operations at a time`);
    }
    const now = Date.now();
    // One transaction for the batch, a savepoint for each op: a refused op rolls back to its
    // savepoint alone, and the batch commits once (one WAL flush instead of one per op). Should
    // the database become unavailable (or choose this batch as a deadlock's victim), nothing of
    // the batch is committed: the request fails with 503 and the device sends it again, so every
    // op is still applied exactly once.
    const results = await db.transaction(async (tx) => {
      const out: SyncResult[] = [];
      for (const raw of ops) {
        const parsed = parseOp(raw, now);
        if (!parsed.ok) {
          // Refused by the op schema: the same op is refused the same way every time.
          out.push({ id: rawOpId(raw), status: "rejected", msg: parsed.msg });
          continue;
        }
        const op = parsed.op;
        await tx.exec("savepoint sync_op");
        try {
          const status = await applyOnce(tx, member.id, op);
          await tx.exec("release savepoint sync_op");
          out.push({ id: op.id, status });
          continue;
        } catch (error) {
          if (classifyDbError(error) === "unavailable") throw error;
          await tx.exec("rollback to savepoint sync_op");
          out.push({ id: op.id, status: "rejected", msg: rejection(error, op, req) });
        }
        // The op is answered, never retried: remember it so a replay is a duplicate.
        await tx.query("insert into sync_op (user_id, op_id, type, at) values ($1, $2, $3, $4) on conflict do nothing", [member.id, op.id, op.type, op.at]);
      }
      return out;
    });
    return reply.success({ results });
  });

  // The state carries an ETag of its content: a browser revalidates its cached copy
  // (`private, no-cache`) and gets 304 when nothing changed, so the device's HTTP cache hands the
  // same answer back without the server sending it again.
  app.get("/api/exam/state", { config: { auth: "member" } }, async (req, reply) => {
    const member = await requireMember(db, req);
    const state = await examState(db, member.id);
    const etag = contentTag(state);
    reply.header("etag", etag).header("cache-control", "private, no-cache");
    if (matchesEtag(req.headers["if-none-match"], etag)) return reply.code(304).send();
    return reply.success(state);
  });

  // The review logs and desired retention (issue 18): the device replays the cards from them,
  // its own unsent reviews included. Revalidated with its ETag like the exam state.
  app.get("/api/exam/review/state", { config: { auth: "member" } }, async (req, reply) => {
    const member = await requireMember(db, req);
    const state = await reviewState(db, member.id);
    const etag = contentTag(state);
    reply.header("etag", etag).header("cache-control", "private, no-cache");
    if (matchesEtag(req.headers["if-none-match"], etag)) return reply.code(304).send();
    return reply.success(state);
  });
}
