import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { isAxiosError, isCancel } from "./errors.ts";

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

