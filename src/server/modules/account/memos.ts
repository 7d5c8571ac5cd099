import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { Translate } from "../../i18n/index.ts";

/**
 * Memos of the balance and points logs. A row stores a memo key and its parameters
 * (`memo_key`, `memo_params`), never text in one language: the log is shown in the reader's
 * language (`think-lang`) when it is read. The keys are stored in the database, so they never
 * change meaning; a row without a key (text written by hand) shows its `memo` text as it is.
 */
export type MemoParams = Record<string, string | number>;

export interface Memo {
  key: MemoKey;
  params: MemoParams;
}

/** A parameter as text ("" when missing or not a string or number). */
function text(value: unknown): string {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value)) ? String(value) : "";
}

const MESSAGES = {
  recharge: () => msg`Recharge`,
  refund: () => msg`Refund`,
  signup: () => msg`Welcome bonus for joining`,
  checkin: () => msg`Daily check-in`,
  "admin.adjust": () => msg`Changed by an administrator`,
  "course.bought": (p: Record<string, unknown>) => {
    const title = text(p.title);
    return title ? msg`Bought course: ${title}` : msg`Bought a course`;
  },
  "lesson.completed": (p: Record<string, unknown>) => {
    const title = text(p.title);
    return title ? msg`Completed lesson: ${title}` : msg`Completed a lesson`;
  },
} satisfies Record<string, (params: Record<string, unknown>) => MessageDescriptor>;

export type MemoKey = keyof typeof MESSAGES;

export const memos = {
  courseBought: (title: string): Memo => ({ key: "course.bought", params: { title } }),
  lessonCompleted: (title: string): Memo => ({ key: "lesson.completed", params: { title } }),
  recharge: (): Memo => ({ key: "recharge", params: {} }),
  signup: (): Memo => ({ key: "signup", params: {} }),
  adminAdjust: (): Memo => ({ key: "admin.adjust", params: {} }),
  checkin: (): Memo => ({ key: "checkin", params: {} }),
};

export function isMemoKey(key: string): key is MemoKey {
  return Object.prototype.hasOwnProperty.call(MESSAGES, key);
}

/**
 * A stored memo in the reader's language: the key's message with its parameters, or the row's
 * own text when it has no (known) key.
 */
export function renderMemo(t: Translate, key: string | null | undefined, params: unknown, fallback: string | null | undefined): string {
  if (!key || !isMemoKey(key)) return fallback ?? "";
  const values = params && typeof params === "object" && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
  return t(MESSAGES[key](values));
}
