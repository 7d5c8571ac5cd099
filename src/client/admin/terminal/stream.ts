import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { http } from "../../api/index.ts";
import { statusMessage } from "../../api/messages.ts";
import { ApiCode, HEADER_ADMIN_TOKEN, HEADER_LANGUAGE } from "../../../shared/constants.ts";
import type { TerminalEvent } from "../../../shared/terminal.ts";
import { useAdminInfo } from "../../stores/adminInfo.ts";
import { useConfig } from "../../stores/config.ts";

export const TERMINAL_URL = "/admin/ajax/terminal";

/** How a stream ended: its end (the server closed it, or it was aborted) or why it never ran. */
export type StreamEnd = { ok: true } | { ok: false; reason: string };

/** The SSE blocks of a chunk of text: complete `data:` payloads, and what is left for the next chunk. */
export function sseEvents(buffer: string): { events: string[]; rest: string } {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? "";
  const events = blocks
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
        .join("\n"),
    )
    .filter((data) => data !== "");
  return { events, rest };
}

/**
 * Opens a task's stream with fetch, the admin token in its `batoken` header (never in the URL),
 * and passes each event's `data` of this task on. An expired token takes the app's refresh path
 * once; a refusal (an envelope instead of a stream) ends with its message.
 */
export async function openTerminalStream(
  task: { uuid: string; command: string; extend: string },
  signal: AbortSignal,
  onData: (data: string) => void,
): Promise<StreamEnd> {
  const query = new URLSearchParams({ command: task.command, uuid: task.uuid, extend: task.extend });
  for (let attempt = 0; ; attempt++) {
    const token = useAdminInfo.getState().getToken("auth");
    let res: Response;
    try {
      res = await fetch(`${TERMINAL_URL}?${query.toString()}`, {
        headers: { [HEADER_ADMIN_TOKEN]: token, [HEADER_LANGUAGE]: useConfig.getState().lang.defaultLang, accept: "text/event-stream" },
        cache: "no-store",
        signal,
      });
    } catch (error) {
      if (signal.aborted) return { ok: true };
      return { ok: false, reason: navigator.onLine ? `${i18n._(msg`Server exception!`)} ${(error as Error).message}` : i18n._(msg`You are disconnected!`) };
    }
    if (!res.ok) return { ok: false, reason: i18n._(statusMessage(res.status, TERMINAL_URL)) };
    if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      const body = (await res.json().catch(() => null)) as { code?: number; msg?: string } | null;
      if (body?.code === ApiCode.TOKEN_EXPIRED && attempt === 0) {
        try {
          await http.refreshAfterExpiry("admin", token);
        } catch {
          return { ok: false, reason: i18n._(msg`Please log in again`) };
        }
        continue;
      }
      return { ok: false, reason: body?.msg || i18n._(msg`Abnormal problem, please contact the website administrator!`) };
    }
    return read(res, task.uuid, signal, onData);
  }
}

async function read(res: Response, uuid: string, signal: AbortSignal, onData: (data: string) => void): Promise<StreamEnd> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { ok: true };
      const { events, rest } = sseEvents(buffer + decoder.decode(value, { stream: true }));
      buffer = rest;
      for (const raw of events) {
        let event: Partial<TerminalEvent>;
        try {
          event = JSON.parse(raw) as Partial<TerminalEvent>;
        } catch {
          continue;
        }
        if (event.uuid === uuid && typeof event.data === "string") onData(event.data);
      }
    }
  } catch (error) {
    if (signal.aborted) return { ok: true };
    return { ok: false, reason: (error as Error).message };
  }
}
