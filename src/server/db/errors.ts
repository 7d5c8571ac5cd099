import { sqlState } from "./database.ts";

/**
 * What a database error means for the request that met it:
 * - "invalid-input": PostgreSQL refused a value it was given (SQLSTATE class 22 "data exception":
 *   bad number or text syntax, out of range, NUL or unpaired surrogate in text or JSON ...;
 *   54000 program limit, e.g. a value too large for an index; 23514 a check constraint). The
 *   statement changed nothing; the same value fails the same way every time.
 * - "unavailable": the database could not be reached or gave up for a reason that passes
 *   (connection lost or refused, shutdown, too many connections, out of memory or disk,
 *   serialization failure, deadlock, statement timeout). Asking again later may succeed.
 * - "other": anything else (a constraint of the data model, a bug).
 */
export type DbErrorKind = "invalid-input" | "unavailable" | "other";

const INVALID_INPUT = new Set(["54000", "23514"]);
const UNAVAILABLE = new Set(["40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03", "57P05"]);
const UNAVAILABLE_CLASSES = new Set(["08", "53", "58"]);
/** Errors of the drivers and sockets, before PostgreSQL answered. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const DRIVER_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
  /pglite is closed/i,
];

/** The five-character SQLSTATE of a PostgreSQL error (both drivers), else undefined. */
export function pgState(error: unknown): string | undefined {
  const code = sqlState(error);
  return code !== undefined && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function classifyDbError(error: unknown): DbErrorKind {
  const state = pgState(error);
  if (state !== undefined) {
    if (state.startsWith("22") || INVALID_INPUT.has(state)) return "invalid-input";
    if (UNAVAILABLE.has(state) || UNAVAILABLE_CLASSES.has(state.slice(0, 2))) return "unavailable";
    return "other";
  }
  const code = sqlState(error);
  if (code !== undefined && NETWORK_CODES.has(code)) return "unavailable";
  const message = error instanceof Error ? error.message : "";
  if (DRIVER_MESSAGES.some((pattern) => pattern.test(message))) return "unavailable";
  return "other";
}

/**
 * What may be logged about an error met while handling a member's data: its kind, name,
 * SQLSTATE and the schema object involved, never PostgreSQL's message, detail or context
 * (they quote the values, e.g. the member's answer text). A non-database error keeps its stack
 * frames, and its message only for the errors of code itself (TypeError, ReferenceError,
 * RangeError); other messages (e.g. a JSON SyntaxError) may quote the input.
 */
export function loggableError(error: unknown): Record<string, unknown> {
  const state = pgState(error);
  if (state !== undefined) {
    const e = error as { table?: unknown; column?: unknown; constraint?: unknown; routine?: unknown };
    return { kind: classifyDbError(error), sqlState: state, table: e.table, column: e.column, constraint: e.constraint, routine: e.routine };
  }
  if (error instanceof Error) {
    const codeError = error instanceof TypeError || error instanceof ReferenceError || error instanceof RangeError;
    return {
      kind: classifyDbError(error),
      name: error.name,
      code: sqlState(error),
      ...(codeError ? { message: error.message.slice(0, 300) } : {}),
      frames: (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line)).slice(0, 8).join("\n"),
    };
  }
  return { kind: "other", type: typeof error };
}
