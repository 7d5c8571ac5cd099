/**
 * The hour (0-23, the member's own time zone) of the daily "reviews due" reminder until the
 * member picks one: apart from shared/push.ts, whose zod schemas the member center's overview
 * would otherwise load for this one number.
 */
export const DEFAULT_REMINDER_HOUR = 20;
