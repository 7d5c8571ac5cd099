/**
 * Notices to members: the kinds, what a notice carries (facts, rendered in the reader's
 * language by whoever shows it) and where one leads, without zod: the member header's bell
 * reads these on every page, and zod's classic schemas (shared/notice.ts adds the endpoints'
 * bodies) cost a phone about 13 KiB gzipped and their evaluation.
 */

export const NOTICE_KINDS = ["room_open", "room_closing", "result"] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** How long before a room closes a member who has not sat it is told (seconds). */
export const CLOSING_NOTICE_SECONDS = 24 * 3600;

/** The facts a notice keeps (Unix seconds; score as a number). */
export interface NoticeData {
  roomId?: number | null;
  title?: string | null;
  startTime?: number;
  endTime?: number;
  attemptId?: number;
  score?: number | null;
  passed?: boolean | null;
  regraded?: boolean;
}

export interface NoticeItem {
  id: number;
  kind: NoticeKind;
  data: NoticeData;
  /** Unix seconds. */
  createTime: number;
  readAt: number | null;
}

/** `GET /api/notice/list`: the newest notices (at most NOTICE_LIST_LIMIT) and how many are unread. */
export interface NoticeList {
  list: NoticeItem[];
  unread: number;
}
export const NOTICE_LIST_LIMIT = 50;

/** The member's switches: each kind, and push / email. */
export interface NoticePreference {
  room_open: boolean;
  room_closing: boolean;
  result: boolean;
  push: boolean;
  email: boolean;
}
export const DEFAULT_NOTICE_PREFERENCE: NoticePreference = { room_open: true, room_closing: true, result: true, push: true, email: true };

/** Where tapping a notice leads: a result to the test records, a room to the official tests. */
export function noticeUrl(n: { kind: NoticeKind; data: NoticeData }): string {
  return n.kind === "result" ? "/exam/examTab/testRecord" : "/exam/examTab/officialTest";
}
