import { z } from "zod";
import { courseOpPayloads } from "./course.ts";
import { examOpPayloads } from "./exam.ts";
import { reviewOpPayloads } from "./review.ts";
import { timeSchema, uuidSchema, type ServerClock } from "./protocol.ts";

/**
 * Every op type of the sync protocol, in one place: an op is `{id, type, at, payload}` (a
 * 36-char uuid, the time the change was made, a payload of its type). A new op type is its
 * payload schema in its domain's file (exam.ts, course.ts, review.ts, ...) listed here, and its handler on
 * the server (src/server/sync/handlers/). Each op is parsed on its own with `parseOp`, so one bad
 * op is `rejected` and never fails the batch.
 */
const OP_PAYLOADS = { ...examOpPayloads, ...courseOpPayloads, ...reviewOpPayloads };

export type OpType = keyof typeof OP_PAYLOADS;
export const OP_TYPES = Object.keys(OP_PAYLOADS) as readonly OpType[];

export type OpPayload<T extends OpType> = z.output<ReturnType<(typeof OP_PAYLOADS)[T]>>;
export interface OpOf<T extends OpType> {
  id: string;
  type: T;
  /** ms since the epoch: when the change was made on the device. */
  at: number;
  payload: OpPayload<T>;
}
export type Op = { [T in OpType]: OpOf<T> }[OpType];

/** The op schema with "now" injected (the upper bound of every op time). */
export function opSchemaAt(now: ServerClock) {
  const base = { id: uuidSchema, at: timeSchema(now) };
  const options = OP_TYPES.map((type) => z.object({ ...base, type: z.literal(type), payload: OP_PAYLOADS[type](now) }));
  return z.discriminatedUnion("type", options as [(typeof options)[number], ...(typeof options)[number][]]);
}
export type OpSchema = ReturnType<typeof opSchemaAt>;

export type ParseOpResult = { ok: true; op: Op } | { ok: false; msg: string };

export function isOpType(value: unknown): value is OpType {
  return typeof value === "string" && Object.hasOwn(OP_PAYLOADS, value);
}

/** The clock of the parse under way (parseOp sets it; the schema reads it). */
let parseNow = Number.NaN;
/** The op schema, built once: its time bounds read `parseNow` (zod parses synchronously). */
let liveSchema: OpSchema | null = null;

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** Parses one raw op against the clock `now` (ms). Never throws. */
export function parseOp(raw: unknown, now: number): ParseOpResult {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, msg: "op must be an object" };
  }
  const type: unknown = (raw as { type?: unknown }).type;
  if (!isOpType(type)) {
    return { ok: false, msg: `type: unknown op type ${JSON.stringify(type) ?? "undefined"}` };
  }
  if (!Number.isFinite(now)) return { ok: false, msg: "server clock is not a finite number" };
  try {
    parseNow = now;
    liveSchema ??= opSchemaAt(() => parseNow);
    const result = liveSchema.safeParse(raw);
    return result.success ? { ok: true, op: result.data as Op } : { ok: false, msg: describeIssues(result.error.issues) };
  } catch {
    return { ok: false, msg: "op could not be read" };
  }
}
