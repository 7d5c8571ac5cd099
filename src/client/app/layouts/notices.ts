import { create } from "zustand";
import type { NoticeItem, NoticeList } from "../../../shared/noticeFacts.ts";
import { request } from "../../api/index.ts";

/**
 * The member's notices as the bell shows them (NoticeBell.tsx): the last list the server sent,
 * kept on the device per member, so offline the bell shows it without errors. Reads and marks
 * change the list here first, then tell the server quietly (offline: the next load corrects it).
 */

interface NoticeState extends NoticeList {
  memberId: number;
}

const empty = (memberId: number): NoticeState => ({ memberId, list: [], unread: 0 });
const quiet = { showErrorMessage: false, showCodeMessage: false } as const;
const storeKey = (memberId: number) => `notices:${memberId}`;

export const useNotices = create<NoticeState>(() => empty(0));

function stored(memberId: number): NoticeState {
  try {
    const raw = localStorage.getItem(storeKey(memberId));
    if (raw) return { memberId, ...(JSON.parse(raw) as NoticeList) };
  } catch {
    // Unreadable: start empty.
  }
  return empty(memberId);
}

function show(memberId: number, next: NoticeList): void {
  useNotices.setState({ memberId, list: next.list, unread: next.unread });
  try {
    localStorage.setItem(storeKey(memberId), JSON.stringify({ list: next.list, unread: next.unread }));
  } catch {
    // A full or blocked storage: the bell still works online.
  }
}

/** Shows the member's kept list at once, then the server's when it answers. */
export async function loadNotices(memberId: number): Promise<void> {
  if (useNotices.getState().memberId !== memberId) useNotices.setState(stored(memberId), true);
  if (!navigator.onLine) return;
  try {
    const fresh = (await request<NoticeList>({ url: "/api/notice/list", method: "get" }, quiet)).data;
    if (useNotices.getState().memberId === memberId) show(memberId, fresh);
  } catch {
    // Offline or the server away: the kept list stays.
  }
}

export async function markNoticeRead(memberId: number, n: NoticeItem): Promise<void> {
  if (n.readAt !== null) return;
  const { list, unread } = useNotices.getState();
  const at = Math.floor(Date.now() / 1000);
  show(memberId, { list: list.map((x) => (x.id === n.id ? { ...x, readAt: at } : x)), unread: Math.max(0, unread - 1) });
  try {
    await request({ url: "/api/notice/read", method: "post", data: { id: n.id } }, quiet);
  } catch {
    // Offline: read here until the next load.
  }
}

export async function markAllNoticesRead(memberId: number): Promise<void> {
  const at = Math.floor(Date.now() / 1000);
  show(memberId, { list: useNotices.getState().list.map((x) => (x.readAt === null ? { ...x, readAt: at } : x)), unread: 0 });
  try {
    await request({ url: "/api/notice/readAll", method: "post" }, quiet);
  } catch {
    // As above.
  }
}
