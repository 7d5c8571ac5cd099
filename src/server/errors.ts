import type { MessageDescriptor } from "@lingui/core";

/**
 * A business failure: answered with HTTP 200 and `{code, msg, data}` (API.md). `msg` is a
 * Lingui descriptor (translated per request) or an already-final string.
 */
export class ApiError extends Error {
  constructor(
    readonly msgDescriptor: MessageDescriptor | string,
    readonly code: number = 0,
    readonly data: unknown = null,
  ) {
    super(typeof msgDescriptor === "string" ? msgDescriptor : (msgDescriptor.message ?? msgDescriptor.id));
    this.name = "ApiError";
  }
}

/** A problem that stops start-up; main prints its message as one line and exits. */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StartupError";
  }
}
