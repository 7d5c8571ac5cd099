import { request as httpRequest, type Agent as HttpAgent } from "node:http";
import { request as httpsRequest, type Agent as HttpsAgent } from "node:https";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import type { FastifyBaseLogger } from "fastify";
import type { Queryable } from "../../db/index.ts";
import { insertOutboxMessages } from "../../auth/repository.ts";
import { addDeliveries, sendEach, type MessageSender, type OutgoingMessage } from "../../auth/senders.ts";
import { getSettings, type SiteSettings } from "../../settings.ts";

/**
 * Text messages (mobile codes) through an HTTP provider set on the config screen's SMS group:
 * one request a message to `sms_url` with `sms_method`, the headers of `sms_headers`, the
 * write-only `sms_token` as `Authorization: Bearer`, and `sms_body` with {mobile} and {text}
 * filled in (JSON-escaped when the template is JSON, else form-encoded; GET fills them into the
 * URL). Any 2xx answer is taken as sent. Off, or without a URL: the fallback (the outbox table)
 * as before.
 *
 * The request goes only to a public address: `request-filtering-agent` checks the address each
 * connection uses, after the name lookup (as web push does, push/transport.ts). `allowLocal` is
 * for tests only (createApp's `smsAllowLocal`: a local test double), never set by configuration.
 *
 * A message the provider did not take is not lost: it is written to the outbox marked failed
 * with the reason (staff can read a code there and pass it on), and the send rejects with an
 * `SmsFailure` whose reason is safe to show staff (no token, no header, not the answer's body).
 */

export const SMS_KEYS = ["sms_enabled", "sms_url", "sms_method", "sms_headers", "sms_token", "sms_body", "sms_timeout"] as const;
type SmsSettings = Pick<SiteSettings, (typeof SMS_KEYS)[number]>;

/** The provider did not take a message; `reason` is for staff (the test button shows it). */
export class SmsFailure extends Error {
  constructor(
    readonly reason: MessageDescriptor,
    readonly detail: string,
  ) {
    super(detail);
    this.name = "SmsFailure";
  }
}

/** No answer at all: the connection's error code (ECONNREFUSED, ENOTFOUND...). */
const unreachable = (code: string) => new SmsFailure(msg`The SMS provider could not be reached (${code})`, code);

export interface SmsRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

/** Fills the templates for one message. */
export function smsRequest(s: SmsSettings, mobile: string, text: string): SmsRequest {
  const headers: Record<string, string> = {};
  for (const line of s.sms_headers.split("\n")) {
    const at = line.indexOf(":");
    if (line.trim() === "" || at < 1) continue;
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  if (s.sms_token) headers.authorization = `Bearer ${s.sms_token}`;
  const query = (value: string) => encodeURIComponent(value);
  const fill = (template: string, encode: (value: string) => string) => template.replaceAll("{mobile}", encode(mobile)).replaceAll("{text}", encode(text));
  const url = fill(s.sms_url, query);
  if (s.sms_method === "GET") return { url, method: "GET", headers, body: null };
  const json = /^\s*[[{]/.test(s.sms_body);
  // JSON: the value as a JSON string's inside (the template holds the quotes).
  const body = fill(s.sms_body, json ? (value) => JSON.stringify(value).slice(1, -1) : query);
  headers["content-type"] ??= json ? "application/json; charset=utf-8" : "application/x-www-form-urlencoded; charset=utf-8";
  return { url, method: s.sms_method, headers, body };
}

/** Makes the request; resolves with the HTTP status, rejects with an SmsFailure. */
function post(req: SmsRequest, timeoutMs: number, agents: { http: HttpAgent; https: HttpsAgent }): Promise<number> {
  return new Promise((resolve, reject) => {
    const https = req.url.startsWith("https:");
    const headers = { ...req.headers, ...(req.body !== null ? { "content-length": String(Buffer.byteLength(req.body)) } : {}) };
    const started = (https ? httpsRequest : httpRequest)(req.url, { method: req.method, headers, agent: https ? agents.https : agents.http });
    const seconds = timeoutMs / 1000;
    const timer = setTimeout(() => started.destroy(new SmsFailure(msg`The SMS provider did not answer within ${seconds} s`, "timeout")), timeoutMs);
    started.on("error", (error) => {
      clearTimeout(timer);
      if (error instanceof SmsFailure) return reject(error);
      // request-filtering-agent's refusal names the address: a clear reason without it.
      if (/is not allowed/.test(error.message)) return reject(new SmsFailure(msg`The SMS provider's address is not public: only public addresses may be used`, "not public"));
      reject(unreachable((error as { code?: string }).code ?? "error"));
    });
    started.on("response", (res) => {
      res.on("error", () => undefined);
      res.on("close", () => clearTimeout(timer));
      res.resume();
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) resolve(status);
      else reject(new SmsFailure(msg`The SMS provider answered HTTP ${status}`, `HTTP ${status}`));
    });
    started.end(req.body ?? undefined);
  });
}

export interface SmsSenderOptions {
  /** Tests only: a local test double may be reached. Never set from configuration. */
  allowLocal?: boolean;
}

/** Whether text messages reach a provider now (switched on, with a URL); else they only reach the outbox table. */
export async function smsProviderSet(db: Queryable): Promise<boolean> {
  const s = await getSettings(db, ["sms_enabled", "sms_url"]);
  return s.sms_enabled && s.sms_url !== "";
}

/** Text messages through the settings' provider; everything else (and SMS while none is set) through `fallback`. */
export function settingsSmsSender(db: Queryable, log: FastifyBaseLogger, fallback: MessageSender, options: SmsSenderOptions = {}): MessageSender {
  const filter = { allowPrivateIPAddress: options.allowLocal === true, allowMetaIPAddress: options.allowLocal === true, keepAlive: false };
  const agents = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
  const send = async (message: OutgoingMessage) => {
    if (message.channel !== "mobile") return fallback.send(message);
    const s = await getSettings(db, SMS_KEYS);
    if (!s.sms_enabled || !s.sms_url) return fallback.send(message);
    try {
      await post(smsRequest(s, message.target, message.body), s.sms_timeout * 1000, agents);
    } catch (error) {
      const failure = error instanceof SmsFailure ? error : unreachable("error");
      // Kept where staff can read it: the code is not lost.
      await insertOutboxMessages(db, [{ ...message, status: "failed", error: failure.detail }]);
      log.warn({ channel: "mobile", target: message.target, reason: failure.detail }, "text message not taken by the SMS provider: kept in the outbox as failed");
      throw failure;
    }
  };
  return {
    name: "sms",
    send,
    async sendMany(messages, onError) {
      const texts = messages.filter((m) => m.channel === "mobile");
      const others = messages.filter((m) => m.channel !== "mobile");
      return addDeliveries(await sendEach(fallback, others, onError), await sendEach({ name: "sms", send }, texts, onError));
    },
  };
}
