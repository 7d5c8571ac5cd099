import { ApiCode } from "../../shared/constants.ts";
import { ApiError, notifyRequestError, request } from "./index.ts";

/** Longest a file may take to arrive (a large export is written while it downloads). */
const EXPORT_TIMEOUT_MS = 5 * 60_000;

/** The file's name: the server's (`user-user-2026-11-28.csv`), else `fallback` and today's date. */
function fileNameOf(disposition: unknown, fallback: string, format: string): string {
  const named = typeof disposition === "string" ? /filename="([^"]+)"/.exec(disposition)?.[1] : undefined;
  if (named) return named;
  const now = new Date();
  const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  return `${fallback.replace(/[^A-Za-z0-9_]+/g, "-")}-${day}.${format}`;
}

/**
 * Downloads a file the server writes (an export) from `url` with `params`, saved under the
 * server's name (else `fallback` and the day). A refusal arrives as the envelope instead: its
 * message is shown and the promise rejects; an expired token is renewed by an ordinary request
 * to `renewUrl` (the blob answer bypasses the request layer's renewal) and the file asked once more.
 */
export async function downloadFile(url: string, params: Record<string, string | number>, fallback: string, format: string, renewUrl: string, retried = false): Promise<string> {
  const res = (await request({ url, method: "get", params, responseType: "blob", timeout: EXPORT_TIMEOUT_MS }, { reductDataFormat: false, cancelDuplicateRequest: false })) as unknown as {
    data: Blob;
    headers: Record<string, unknown>;
    status: number;
  };
  if (res.data.type.includes("json")) {
    const body = JSON.parse(await res.data.text()) as { code: number; msg?: string; data?: unknown };
    if (body.code === ApiCode.TOKEN_EXPIRED && !retried) {
      await request({ url: renewUrl, method: "get", params: { page: 1, limit: 1 } }, { cancelDuplicateRequest: false, showErrorMessage: false, showCodeMessage: false });
      return downloadFile(url, params, fallback, format, renewUrl, true);
    }
    if (body.msg) notifyRequestError(body.msg);
    throw ApiError.fromEnvelope(body, res.status);
  }
  const name = fileNameOf(res.headers["content-disposition"], fallback, format);
  const href = URL.createObjectURL(res.data);
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}
