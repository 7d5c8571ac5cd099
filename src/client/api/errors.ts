import type { AxiosError } from "axios";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

/**
 * axios's own `isAxiosError` and `isCancel` checks, without importing axios (it loads with the
 * first request, src/client/api/http.ts): an AxiosError carries `isAxiosError: true`, a
 * cancellation (CanceledError) `__CANCEL__: true`.
 */
export function isAxiosError(error: unknown): error is AxiosError {
  return typeof error === "object" && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true;
}
export function isCancel(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { __CANCEL__?: unknown }).__CANCEL__ === true;
}

/**
 * The one error the request layer rejects with. `code`, `msg` and `data` are the server's
 * envelope when it answered one (`code` null otherwise); `status` the HTTP status when a response
 * arrived; `network` true when none did (offline, refused, timed out); `cancelled` for a request
 * cancelled on purpose (a duplicate, a page left). `msg` is always a sentence for the member: the
 * server's words, or the SPEC §8 catalogue's in the member's language.
 */
export class ApiError extends Error {
  readonly code: number | null;
  readonly msg: string;
  readonly data: unknown;
  readonly status: number | null;
  readonly network: boolean;
  readonly cancelled: boolean;

  constructor(init: { code?: number | null; msg?: string; data?: unknown; status?: number | null; network?: boolean; cancelled?: boolean; cause?: unknown }) {
    super(init.msg || (init.code !== undefined && init.code !== null ? `code ${init.code}` : "request failed"), { cause: init.cause });
    this.name = "ApiError";
    this.code = init.code ?? null;
    this.msg = init.msg ?? "";
    this.data = init.data ?? null;
    this.status = init.status ?? null;
    this.network = init.network ?? false;
    this.cancelled = init.cancelled ?? false;
  }

  /** The server answered with an envelope whose code is not success: asking again changes nothing. */
  get isServerAnswer(): boolean {
    return this.code !== null;
  }

  /** A refused envelope, as the server sent it. */
  static fromEnvelope(body: { code: number; msg?: string; data?: unknown }, status: number): ApiError {
    return new ApiError({ code: body.code, msg: body.msg ?? "", data: body.data ?? null, status });
  }

  /** A failed exchange (no response, or an HTTP error status), with the catalogue's message. */
  static fromHttp(error: unknown, message: string): ApiError {
    const response = isAxiosError(error) ? error.response : undefined;
    return new ApiError({
      msg: message,
      status: response?.status ?? null,
      network: !response && !isCancel(error),
      cancelled: isCancel(error),
      cause: error,
    });
  }
}

/** The error when it is the server's refusal (an envelope), else null: network trouble is not one. */
export function serverRefusal(error: unknown): ApiError | null {
  return error instanceof ApiError && error.isServerAnswer ? error : null;
}

/**
 * The failure when the request layer's own code (api/client.ts, or axios after it) could not be
 * downloaded (offline before the service worker had it, or a deploy replaced the chunk): no
 * request went out, so it is a network failure, as if no server had answered.
 */
export function downloadFailure(cause: unknown, online: boolean, translate: (message: MessageDescriptor) => string): ApiError {
  return new ApiError({ msg: translate(online ? msg`Server exception!` : msg`You are disconnected!`), network: true, cause });
}
