import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { MAX_OPS_PER_SYNC, rawOpId, type SyncResult } from "../../shared/sync/protocol.ts";
import { parseOp, type Op, type OpType } from "../../shared/sync/ops.ts";
import type { Queryable } from "../db/index.ts";
import { classifyDbError, loggableError } from "../db/errors.ts";
import { now as serverNow } from "../clock.ts";
import { ApiError } from "../errors.ts";
import { requireMember } from "../plugins/auth.ts";
import { officialAnswerOpAlone } from "../modules/exam/attempts/index.ts";
import { bulkHandlerOf, handleOp } from "./handlers/index.ts";
import { examState, loadBatchReads } from "./handlers/exam.ts";
import { reviewState } from "./handlers/review.ts";
import { RejectOp, type BulkOpHandler } from "./registry.ts";
import { recordOps, recordRejections, recordedRejections, type StoredRejection } from "./repository.ts";

/**
 * Why an op that failed while being applied (its transaction rolled back) is rejected. A
 * refusal of the rules (RejectOp, ApiError) says why; anything else (a value the database
 * refused, a constraint, a bug) is logged with the op's id and type and the error's SQLSTATE or
 * stack, never the op's payload (the member's answers), and answered with a generic reason.
 * Such ops are recorded like every answered op, with their reason, so the device never has to
 * send them again, a replay is answered the same, and one bad op never holds back the ops behind it.
 */
function rejection(error: unknown, op: Op, req: FastifyRequest): StoredRejection {
  if (error instanceof RejectOp) return storedRejection(error.reason);
  if (error instanceof ApiError) return storedRejection(error.msgDescriptor);
  req.log.error({ opId: op.id, opType: op.type, error: loggableError(error) }, "sync op failed");
  return storedRejection(msg`The server could not apply this change`);
}

/** What is kept of a message: its key, source text and parameters (the comment is for translators). */
function storedRejection(message: MessageDescriptor | string): StoredRejection {
  if (typeof message === "string") return message;
  return { id: message.id, ...(message.message === undefined ? {} : { message: message.message }), ...(message.values ? { values: message.values } : {}) };
}

/** A kept rejection in the requester's language. */
function rendered(req: FastifyRequest, rejection: StoredRejection): string {
  if (typeof rejection === "string") return rejection;
  return typeof rejection?.id === "string" ? req.t(rejection) : req.t(msg`The server could not apply this change`);
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

/** Thrown in the quick pass of a batch when one of its ops was refused while being applied. */
class CarefulPassNeeded extends Error {}

type ParsedOp = { raw: unknown; parsed: ReturnType<typeof parseOp> };

/**
 * Applies a batch in its transaction and answers each op: `careful` puts each op behind its own
 * savepoint (a refused op rolls back alone); without it the first refusal aborts the pass.
 */
async function applyBatch(tx: Queryable, userId: number, parsed: ParsedOp[], req: FastifyRequest, careful: boolean): Promise<SyncResult[]> {
  const valid = parsed.flatMap((p) => (p.parsed.ok ? [p.parsed.op] : []));
  const fresh = await recordOps(tx, userId, valid);
  // Sent before: each is answered as it was then (rejected with its reason, or duplicate).
  const before = await recordedRejections(tx, userId, [...new Set(valid.flatMap((op) => (fresh.has(op.id) ? [] : [op.id])))]);
  const batch = await loadBatchReads(tx, userId, valid.filter((op) => fresh.has(op.id)));
  // Rejected in this batch: kept for the replays (and answered the same to a twin later in it).
  const rejected = new Map<string, StoredRejection>();
  const out: SyncResult[] = [];
  const ctx = { tx, userId, batch };
  // The quick pass judges ops with a bulk handler in their places and writes them together last.
  const bulk = new Map<BulkOpHandler<OpType, unknown>, unknown[]>();
  let savepoint = false;
  for (const { raw, parsed: result } of parsed) {
    if (!result.ok) {
      // Refused by the op schema: the same op is refused the same way every time.
      out.push({ id: rawOpId(raw), status: "rejected", msg: result.msg });
      continue;
    }
    const op = result.op;
    // Sent before (or earlier in this batch): answered as it was then, not applied again.
    if (!fresh.delete(op.id)) {
      const reason = rejected.get(op.id) ?? before.get(op.id);
      out.push(reason === undefined ? { id: op.id, status: "duplicate" } : { id: op.id, status: "rejected", msg: rendered(req, reason) });
      continue;
    }
    if (careful) {
      // The previous op's savepoint is released in the same message (the commit releases the last).
      await tx.exec(savepoint ? "release savepoint sync_op; savepoint sync_op" : "savepoint sync_op");
      savepoint = true;
    }
    try {
      const bulkHandler = careful ? undefined : bulkHandlerOf(op.type);
      if (bulkHandler) {
        const rows = bulk.get(bulkHandler) ?? [];
        rows.push(await bulkHandler.judge(ctx, op));
        bulk.set(bulkHandler, rows);
      } else {
        await handleOp(ctx, op);
      }
      out.push({ id: op.id, status: "applied" });
    } catch (error) {
      if (classifyDbError(error) === "unavailable") throw error;
      if (!careful) throw new CarefulPassNeeded();
      // Back to before the handler: the op id stays recorded (it was written before the
      // savepoint), so the op is applied at most once, and its reason is recorded below, so a
      // replay (its answer lost on the way) is answered `rejected` with the same reason.
      await tx.exec("rollback to savepoint sync_op");
      const reason = rejection(error, op, req);
      rejected.set(op.id, reason);
      out.push({ id: op.id, status: "rejected", msg: rendered(req, reason) });
    }
  }
  await recordRejections(tx, userId, rejected);
  for (const [bulkHandler, rows] of bulk) {
    try {
      await bulkHandler.write(ctx, rows);
    } catch (error) {
      if (classifyDbError(error) === "unavailable") throw error;
      throw new CarefulPassNeeded();
    }
  }
  return out;
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
    const now = serverNow();
    const parsed = ops.map((raw) => ({ raw, parsed: parseOp(raw, now) }));
    // One transaction for the batch, committed once (one WAL flush instead of one per op). Should
    // the database become unavailable (or choose this batch as a deadlock's victim), nothing of
    // the batch is committed: the request fails with 503 and the device sends it again, so every
    // op is still applied exactly once.
    // Round trips: the batch's op ids are recorded in one statement, what its ops read is loaded
    // in one more (loadBatchReads), then each op costs its handler's own writes, except the ops
    // with a bulk handler (practice answers), written together in one statement. That is the
    // quick pass, with no savepoints; should any op be refused while being applied, the pass is
    // rolled back whole and the batch applied again carefully: a savepoint for each op (one more
    // round trip each), so a refused op rolls back alone and the others are applied.
    // An exam's answer alone in its batch (what the app sends while a member sits an exam), in
    // time: taken and recorded in one statement; anything else about it takes the general path.
    const alone = parsed.length === 1 && parsed[0]!.parsed.ok ? parsed[0]!.parsed.op : null;
    if (alone?.type === "official.answer" && (await officialAnswerOpAlone(db, member.id, alone))) {
      return reply.success({ results: [{ id: alone.id, status: "applied" }] satisfies SyncResult[] });
    }
    let results: SyncResult[];
    try {
      results = await db.transaction((tx) => applyBatch(tx, member.id, parsed, req, false));
    } catch (error) {
      if (!(error instanceof CarefulPassNeeded)) throw error;
      results = await db.transaction((tx) => applyBatch(tx, member.id, parsed, req, true));
    }
    return reply.success({ results });
  });

  // A member's state carries an ETag of its content: a browser revalidates its cached copy
  // (`private, no-cache`) and gets 304 when nothing changed, so the device's HTTP cache hands the
  // same answer back without the server sending it again.
  const memberState = (url: string, read: (db: Queryable, memberId: number) => Promise<unknown>) =>
    app.get(url, { config: { auth: "member" } }, async (req, reply) => {
      const member = await requireMember(db, req);
      const state = await read(db, member.id);
      const etag = contentTag(state);
      reply.header("etag", etag).header("cache-control", "private, no-cache");
      if (matchesEtag(req.headers["if-none-match"], etag)) return reply.code(304).send();
      return reply.success(state);
    });

  memberState("/api/exam/state", examState);
  // The review logs and desired retention: the device replays the cards from them,
  // its own unsent reviews included.
  memberState("/api/exam/review/state", reviewState);
}
