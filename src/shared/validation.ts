import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";

/**
 * Form validation rules of SPEC §5. Each rule answers null when the value is fine, else the
 * message to show. The format rules (account, password, mobile, name, ID number, float) reject
 * empty values too; wrap a rule in `optional` for a field that may be left blank.
 */
export type Validator = (value: unknown) => MessageDescriptor | null;

/** 3 to 15 characters, starting with a letter; letters, digits and underscores only. */
export const ACCOUNT_REGEX = /^[a-zA-Z][a-zA-Z0-9_]{2,14}$/;
/** 6 to 32 characters, none of & < > " ' (nor line breaks). */
export const PASSWORD_REGEX = /^(?!.*[&<>"'\n\r]).{6,32}$/u;
/** Mainland China mobile number: 11 digits starting 13-19. */
export const MOBILE_REGEX = /^1[3-9]\d{9}$/;
const FLOAT_REGEX = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)$/;
/** A Han or Latin letter. */
const NAME_LETTER = String.raw`(?=\p{L})[\p{Script=Han}\p{Script=Latin}]`;
const NAME_REGEX = new RegExp(`^${NAME_LETTER}(?:(?:${NAME_LETTER}|[ \u00b7])*${NAME_LETTER})?$`, "u");
const ID_NUMBER_REGEX = /^\d{17}[\dXx]$/;
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const ID_CHECK_CHARS = "10X98765432";

/** Strings as they are, finite numbers as their decimal text, anything else null. */
function asText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

function isBlank(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim() === "";
  if (typeof value === "number") return Number.isNaN(value);
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** Lets an empty value (null, undefined, blank string, NaN, empty array) through `rule`. */
export function optional(rule: Validator): Validator {
  return (value) => (isBlank(value) ? null : rule(value));
}

export function validateRequired(value: unknown): MessageDescriptor | null {
  return isBlank(value) ? msg`Required` : null;
}

export function validateAccount(value: unknown): MessageDescriptor | null {
  const text = asText(value);
  return text !== null && ACCOUNT_REGEX.test(text) ? null : msg`A username is 3 to 15 letters, digits or underscores, starting with a letter`;
}

export function validatePassword(value: unknown): MessageDescriptor | null {
  const text = typeof value === "string" ? value : null;
  return text !== null && PASSWORD_REGEX.test(text) ? null : msg`A password is 6 to 32 characters, without & < > " or '`;
}

export function validateMobile(value: unknown): MessageDescriptor | null {
  const text = asText(value);
  return text !== null && MOBILE_REGEX.test(text) ? null : msg`Please enter the correct mobile number`;
}

/** A Chinese or Latin personal name: 2 to 30 letters, spaces and middle dots (·) inside. */
export function validateName(value: unknown): MessageDescriptor | null {
  const text = typeof value === "string" ? value.normalize("NFC") : null;
  const length = text === null ? 0 : [...text].length;
  return text !== null && length >= 2 && length <= 30 && NAME_REGEX.test(text)
    ? null
    : msg`Please enter the correct name`;
}

function localDateDigits(date: Date): string {
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  return `${pad(date.getFullYear(), 4)}${pad(date.getMonth() + 1, 2)}${pad(date.getDate(), 2)}`;
}

/**
 * Mainland resident ID number (GB 11643): 17 digits and a check character (digit or X/x), a
 * real date of birth in positions 7-14 (year 1800 or later, not after `today`), and the
 * ISO 7064 MOD 11-2 check character.
 */
export function isIdNumber(value: string, today: Date = new Date()): boolean {
  if (!ID_NUMBER_REGEX.test(value)) return false;

  const birth = value.slice(6, 14);
  const year = Number(birth.slice(0, 4));
  const month = Number(birth.slice(4, 6));
  const day = Number(birth.slice(6, 8));
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    year < 1800 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    birth > localDateDigits(today)
  ) {
    return false;
  }

  let sum = 0;
  for (let i = 0; i < ID_WEIGHTS.length; i += 1) sum += Number(value[i]) * (ID_WEIGHTS[i] ?? 0);
  return ID_CHECK_CHARS[sum % 11] === value[17]?.toUpperCase();
}

export function validateIdNumber(value: unknown, today: Date = new Date()): MessageDescriptor | null {
  return typeof value === "string" && isIdNumber(value, today) ? null : msg`Please enter the correct ID number`;
}

/** A decimal number such as -1.5, 3, 0.25 or .5 (a finite number value is accepted as is). */
export function validateFloat(value: unknown): MessageDescriptor | null {
  const ok = typeof value === "number" ? Number.isFinite(value) : typeof value === "string" && FLOAT_REGEX.test(value);
  return ok ? null : msg`Please enter the correct floating point number`;
}

/**
 * Rich-text content is empty when, without its tags, comments and non-breaking spaces, no text
 * is left, unless it holds an image or a video (`<p><br></p>`, `<p> &nbsp; </p>` are empty).
 */
export function validateEditorRequired(value: unknown): MessageDescriptor | null {
  const html = typeof value === "string" ? value : "";
  if (/<(?:img|video)\b/i.test(html)) return null;
  const text = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;|&#160;|&#x0*a0;/gi, "")
    .replace(/[\s\u200b]+/g, "");
  return text === "" ? msg`Content cannot be empty` : null;
}
