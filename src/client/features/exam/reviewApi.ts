import { queryOptions } from "@tanstack/react-query";
import type { DueList, Mastery } from "../../../shared/sync/review.ts";
import { request } from "../../api/index.ts";

/** Mastery by topic from the server (`GET /api/exam/review/mastery`): every answer of every device. */
export const masteryQuery = () =>
  queryOptions({
    queryKey: ["exam", "review", "mastery"] as const,
    queryFn: async ({ signal }) => (await request<Mastery>({ url: "/api/exam/review/mastery", method: "get", signal }, { showErrorMessage: false })).data,
    staleTime: 30_000,
  });

/** Whole minutes a review takes, at least 1. */
export function minutesOf(seconds: number): number {
  return Math.max(1, Math.round(seconds / 60));
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long until a card comes back, as the rating buttons say it ("10m", "1d", "4d", "2 mths"):
 * the largest unit that fits, in the language's own narrow units (Intl). Months are "short":
 * the narrow English month ("2m") would read as minutes.
 */
export function formatInterval(ms: number, locale: string): string {
  const unit = (value: number, name: "minute" | "hour" | "day" | "month" | "year", display: "narrow" | "short" = "narrow") =>
    new Intl.NumberFormat(locale, { style: "unit", unit: name, unitDisplay: display, maximumFractionDigits: name === "year" ? 1 : 0 }).format(value);
  if (ms < HOUR) return unit(Math.max(1, Math.round(ms / MINUTE)), "minute");
  if (ms < DAY) return unit(Math.round(ms / HOUR), "hour");
  const days = Math.round(ms / DAY);
  if (days < 30) return unit(days, "day");
  if (days < 365) return unit(Math.round(days / 30), "month", "short");
  return unit(Math.round((days / 365) * 10) / 10, "year");
}

/** Local midnight of the day of `ms`. */
function dayStart(ms: number): number {
  const day = new Date(ms);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/**
 * When a card is due next, in the member's time and language: the time when it is today,
 * "tomorrow", else the weekday and date ("Sat, Nov 28" / "11月28日周六").
 */
export function formatDue(due: number, now: number, locale: string): string {
  const days = Math.round((dayStart(due) - dayStart(now)) / DAY);
  if (days <= 0) return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" }).format(due);
  if (days === 1) return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(1, "day");
  return new Intl.DateTimeFormat(locale, { weekday: "short", month: "short", day: "numeric", ...(days > 300 ? { year: "numeric" } : {}) }).format(due);
}

/** The session's cards by the day they come back (local days, earliest first): the summary's "what comes next". */
export function dueDays(dues: readonly number[]): { day: number; first: number; count: number }[] {
  const byDay = new Map<number, { day: number; first: number; count: number }>();
  for (const due of dues) {
    const day = dayStart(due);
    const entry = byDay.get(day);
    if (entry) {
      entry.count += 1;
      entry.first = Math.min(entry.first, due);
    } else byDay.set(day, { day, first: due, count: 1 });
  }
  return [...byDay.values()].sort((a, b) => a.day - b.day);
}

/** The member's due reviews across banks from the server (`GET /api/exam/review/due`): which banks they are in. */
export async function fetchDueList(): Promise<DueList> {
  return (await request<DueList>({ url: "/api/exam/review/due", method: "get" }, { showErrorMessage: false })).data;
}
