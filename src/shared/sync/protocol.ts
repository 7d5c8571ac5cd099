import { z } from "zod";
import { MAX_OPS_PER_SYNC } from "./wire.ts";

/**
 * The offline sync protocol (API.md "Offline sync"), whatever the ops are about: `POST
 * /api/exam/sync {ops}` answers one SyncResult per op, in order. The op types and their payloads
 * are listed in ops.ts (one file per domain: exam.ts, course.ts). Messages are developer-facing
 * English.
 */

export { MAX_OPS_PER_SYNC, SYNC_STATUSES, syncResponseSchema, syncResultSchema, type SyncResponse, type SyncResult, type SyncStatus } from "./wire.ts";

/** Earliest acceptable op time: 2020-01-01T00:00:00Z. */
export const MIN_OP_TIME = Date.UTC(2020, 0, 1);
/** How far ahead of the server's clock a client's clock may run. */
export const MAX_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

/** A 36-character uuid: lowercase hex and dashes in the 8-4-4-4-12 layout. */
export const UUID_REGEX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const uuidSchema = z.string().regex(UUID_REGEX, "must be a 36-character lowercase uuid");

/**
 * The server's clock as the op schemas see it: a time (ms), or a function read at each parse, so
 * one schema, built once, judges every request against its own clock (building the op schema for
 * each request cost about a millisecond of CPU: ops.ts `parseOp`).
 */
export type ServerClock = number | (() => number);

/** Milliseconds since the epoch, from 2020-01-01 to `now` + 1 day. */
export function timeSchema(now: ServerClock) {
  const time = z.number().int().min(MIN_OP_TIME, "must be ms since the epoch, not before 2020-01-01");
  const future = "must not be more than 1 day in the future";
  return typeof now === "number" ? time.max(now + MAX_CLOCK_SKEW_MS, future) : time.refine((value) => value <= now() + MAX_CLOCK_SKEW_MS, future);
}

/**
 * A payload schema, given the server's clock `now` (for payloads that carry times of their own).
 * Each op type has one (ops.ts).
 */
export type PayloadSchemaAt = (now: ServerClock) => z.ZodType;

/**
 * The request body. It only checks that `ops` is an array of 1..200 items; each op is then
 * parsed with `parseOp` (ops.ts) so that one bad op is rejected on its own.
 */
export const syncRequestSchema = z.object({
  ops: z.array(z.unknown()).min(1).max(MAX_OPS_PER_SYNC),
});
export type SyncRequest = z.infer<typeof syncRequestSchema>;

/** The id of a raw op when it has a string one (to label a rejection), else "". */
export function rawOpId(raw: unknown): string {
  if (typeof raw !== "object" || raw === null) return "";
  const id: unknown = (raw as { id?: unknown }).id;
  return typeof id === "string" ? id.slice(0, 64) : "";
}
