import { createHash, randomInt } from "node:crypto";
import type { MessageDescriptor } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import type { Queryable } from "../db/index.ts";
import { ApiError } from "../errors.ts";
import type { Translate } from "../i18n/index.ts";
import { countWrongCode, insertCode, latestOpenCode, recentCodes, spendCode } from "./repository.ts";
import type { MessageSender } from "./senders.ts";

export type CodeChannel = "email" | "mobile";

/** Events a code can be sent for (the framework's names). */
export const CODE_EVENTS = [
  "user_register",
  "user_retrieve_pwd",
  "user_change_email",
  "user_change_mobile",
  "user_email_verify",
  "user_mobile_verify",
] as const;
export type CodeEvent = (typeof CODE_EVENTS)[number];

export const CODE_TTL_SECONDS = 600;
export const CODE_RESEND_SECONDS = 60;
export const CODE_MAX_PER_HOUR = 10;
export const CODE_MAX_ATTEMPTS = 5;

const now = () => Math.floor(Date.now() / 1000);
const hashCode = (target: string, code: string) => createHash("sha256").update(`${target.toLowerCase()}\0${code}`).digest("hex");

/**
 * Sends a 6-digit code for an event: at most one a minute and 10 an hour per address; valid 10
 * minutes; stored hashed.
 */
export async function sendCode(
  db: Queryable,
  sender: MessageSender,
  t: Translate,
  channel: CodeChannel,
  target: string,
  event: CodeEvent,
): Promise<void> {
  const t0 = now();
  const { n, last } = await recentCodes(db, channel, target, t0 - 3600);
  if (last !== null && t0 - Number(last) < CODE_RESEND_SECONDS) throw new ApiError(msg`Please wait a minute before asking for another code`);
  if (n >= CODE_MAX_PER_HOUR) throw new ApiError(msg`Too many codes sent to this address; please try again later`);

  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await insertCode(db, { channel, target, event, code_hash: hashCode(target, code), create_time: t0, expire_time: t0 + CODE_TTL_SECONDS });
  const minutes = CODE_TTL_SECONDS / 60;
  try {
    await sender.send({
      channel,
      target,
      subject: t(msg`Your verification code`),
      body: t(msg`Your verification code is ${code}. It is valid for ${plural(minutes, { one: "# minute", other: "# minutes" })}. If you did not ask for it, ignore this message.`),
    });
  } catch {
    // The sender logged why (an SMS provider's failure is kept in the outbox, marked failed).
    throw new ApiError(msg`The code could not be sent: please try again in a minute`);
  }
}

/** Checks and uses up a code (single use; 5 wrong tries spend it). Throws a clear ApiError. */
export async function useCode(db: Queryable, channel: CodeChannel, target: string, event: CodeEvent, code: unknown): Promise<void> {
  const wrong: MessageDescriptor = msg`The verification code is wrong or has expired`;
  if (typeof code !== "string" || !/^\d{4,8}$/.test(code)) throw new ApiError(wrong);
  const row = await latestOpenCode(db, channel, target, event);
  if (!row || Number(row.expire_time) < now() || row.attempts >= CODE_MAX_ATTEMPTS) throw new ApiError(wrong);
  if (row.code_hash !== hashCode(target, code)) {
    await countWrongCode(db, row.id);
    throw new ApiError(wrong);
  }
  await spendCode(db, row.id);
}
