/** Timestamps and dates of SPEC §9: 10-digit timestamps are seconds; local-time formatting. */

export const DEFAULT_TIME_FORMAT = "YYYY-MM-DD HH:mm:ss";

/**
 * Milliseconds since the epoch for a timestamp given as a number or numeric string: one whose
 * integer part has 10 digits is in seconds (x1000), anything else (13 digits) already in
 * milliseconds. A string that is not a number gives NaN.
 */
export function toMilliseconds(ts: number | string): number {
  const value = typeof ts === "string" ? (ts.trim() === "" ? Number.NaN : Number(ts)) : ts;
  if (!Number.isFinite(value)) return Number.NaN;
  return String(Math.trunc(Math.abs(value))).length === 10 ? value * 1000 : value;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * `ts` (seconds or milliseconds, see toMilliseconds, or a Date) in local time, with the tokens
 * YYYY MM DD HH mm ss replaced; '' for null, undefined, '', 0 and anything invalid.
 */
export function formatTime(
  ts: number | string | Date | null | undefined,
  format: string = DEFAULT_TIME_FORMAT,
): string {
  if (ts === null || ts === undefined || ts === "" || ts === 0) return "";
  const ms = ts instanceof Date ? ts.getTime() : toMilliseconds(ts);
  if (!Number.isFinite(ms) || ms === 0) return "";
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return "";
  const parts: Record<string, string> = {
    YYYY: pad(date.getFullYear(), 4),
    MM: pad(date.getMonth() + 1),
    DD: pad(date.getDate()),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
    ss: pad(date.getSeconds()),
  };
  return format.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => parts[token] ?? token);
}

/**
 * Calendar days in a time zone (an IANA name such as "Asia/Shanghai"; undefined: the runtime's
 * own). `dayIn` is the "YYYY-MM-DD" date of a moment there; `daysEndingAt` the `count` dates up to
 * and including that of `seconds`, oldest first. An unknown zone throws a RangeError (Intl's).
 */
export function dayIn(zone: string | undefined): (seconds: number) => string {
  const format = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
  return (seconds) => {
    const parts = Object.fromEntries(format.formatToParts(new Date(seconds * 1000)).map((p) => [p.type, p.value]));
    return `${parts.year}-${parts.month}-${parts.day}`;
  };
}

export function daysEndingAt(seconds: number, zone: string | undefined, count: number): string[] {
  const [y, m, d] = dayIn(zone)(seconds).split("-").map(Number) as [number, number, number];
  // Calendar arithmetic on the date alone (noon UTC: no zone or DST can move it to another day).
  return Array.from({ length: count }, (_, i) => new Date(Date.UTC(y, m - 1, d - (count - 1 - i), 12)).toISOString().slice(0, 10));
}

/**
 * The wall-clock time of a moment in a time zone, as a Date whose UTC fields read that time: what
 * a spreadsheet's date cell (which has no zone) should hold for a reader in that zone. An unknown
 * zone throws a RangeError (Intl's).
 */
export function wallClockIn(zone: string | undefined): (seconds: number) => Date {
  const format = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  return (seconds) => {
    const p = Object.fromEntries(format.formatToParts(new Date(seconds * 1000)).map((x) => [x.type, Number(x.value)]));
    return new Date(Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!));
  };
}
