/**
 * Page leaves of official exams: each time the exam page is hidden while an official
 * attempt is open (the member switched tab or app, locked the phone, closed or reloaded the page)
 * and shown again, the device records when it left and came back, in ms on the server's clock as
 * the device measures it (its clock plus the offset it learnt at start, as for answer times). They
 * travel as `official.leave` sync ops and markers see them per attempt.
 */

/** Most page leaves the server keeps for one attempt (more are refused: the op is rejected). */
export const MAX_PAGE_LEAVES = 500;

/**
 * How far (ms) a leave may lie outside its attempt's time (start to submission or deadline): the
 * device's measure of the server's clock is off by up to the start request's round trip.
 */
export const PAGE_LEAVE_GRACE_MS = 60_000;

/** One leave: ms on the server's clock. */
export interface PageLeave {
  leftAt: number;
  backAt: number;
}

/** How many times and how long (ms in all) the member left the page. */
export interface PageLeaveSummary {
  count: number;
  totalMs: number;
}

export const NO_PAGE_LEAVES: PageLeaveSummary = { count: 0, totalMs: 0 };

export function summarizeLeaves(leaves: readonly PageLeave[]): PageLeaveSummary {
  return { count: leaves.length, totalMs: leaves.reduce((sum, l) => sum + Math.max(0, l.backAt - l.leftAt), 0) };
}
