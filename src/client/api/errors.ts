import type { AxiosError } from "axios";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";

/** SPEC §8 HTTP status catalogue. */
export function statusMessage(status: number, url = ""): MessageDescriptor {
  switch (status) {
    case 302:
      return msg`Interface redirected!`;
    case 400:
      return msg`Incorrect parameter!`;
    case 401:
    case 403:
      return msg`You do not have permission to operate!`;
    case 404:
      return msg`Error requesting address: ${url}`;
    case 408:
      return msg`Request timed out!`;
    case 409:
      return msg`The same data already exists in the system!`;
    case 500:
      return msg`Server internal error!`;
    case 501:
      return msg`Service not implemented!`;
    case 502:
      return msg`Gateway error!`;
    case 503:
      return msg`Service unavailable!`;
    case 504:
      return msg`The service is temporarily unavailable Please try again later!`;
    case 505:
      return msg`HTTP version is not supported!`;
    default:
      return msg`Abnormal problem, please contact the website administrator!`;
  }
}

/**
 * axios's own `isAxiosError` and `isCancel` checks, without importing axios (it loads with the
 * first request, src/client/api/http.ts): an AxiosError carries `isAxiosError: true`, a
 * cancellation (CanceledError) `__CANCEL__: true`.
 */
function isAxiosError(error: unknown): error is AxiosError {
  return typeof error === "object" && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true;
}
function isCancel(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { __CANCEL__?: unknown }).__CANCEL__ === true;
}

const NETWORK_CODES = new Set(["ERR_NETWORK", "ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"]);

/**
 * The message for a failed request (SPEC §8): a response status maps through the catalogue;
 * without a response, a message containing "timeout" is a timeout and one containing "Network"
 * is a server exception when online, else "You are disconnected!". A cancelled request has no
 * message (nothing is shown).
 */
export function httpErrorMessage(error: unknown, online: boolean): MessageDescriptor | null {
  if (isCancel(error)) return null;
  const status = isAxiosError(error) ? error.response?.status : undefined;
  if (status) return statusMessage(status, isAxiosError(error) ? (error.config?.url ?? "") : "");
  const text = error instanceof Error ? error.message : String(error);
  if (text.includes("timeout")) return msg`Network request timeout!`;
  // Browsers say "Network Error"; Node's adapter names the socket error instead.
  const code = isAxiosError(error) ? error.code : undefined;
  if (text.includes("Network") || NETWORK_CODES.has(code ?? "")) {
    return online ? msg`Server exception!` : msg`You are disconnected!`;
  }
  return statusMessage(0);
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
