import { useLingui } from "@lingui/react/macro";
import { Bell } from "lucide-react";
import { Popover } from "radix-ui";
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { noticeUrl, type NoticeItem } from "../../../shared/notice.ts";
import { formatTime } from "../../../shared/time.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { PopoverPanel } from "../../ui/PopoverPanel.tsx";
import { loadNotices, markAllNoticesRead, markNoticeRead, useNotices } from "./notices.ts";

/**
 * The member's notices in the header (loaded only for signed-in members): a bell with the unread
 * count, a list of the newest notices (tap one: it is read, and its room or result opens) and
 * "mark all read". Each notice is rendered here, in the reader's language, from the facts the
 * server kept. The last list is kept on the device, so offline the bell shows it without errors.
 */

const REFRESH_MS = 120_000;

/** A notice's text in the reader's language. */
function useNoticeText(): (n: NoticeItem) => string {
  const { t } = useLingui();
  return (n) => {
    const title = n.data.title ?? "";
    if (n.kind === "room_open") return t`Exam room “${title}” is open: you can sit it now.`;
    if (n.kind === "room_closing") {
      const end = formatTime(n.data.endTime, "MM-DD HH:mm");
      return t`Exam room “${title}” closes at ${end} and you have not sat it yet.`;
    }
    const score = Number(n.data.score ?? 0);
    if (n.data.regraded) return n.data.passed ? t`Your result in “${title}” was updated: ${score} points, passed.` : t`Your result in “${title}” was updated: ${score} points, not passed.`;
    return n.data.passed ? t`Your result in “${title}”: ${score} points, passed.` : t`Your result in “${title}”: ${score} points, not passed.`;
  };
}

export default function NoticeBell({ memberId }: { memberId: number }) {
  const { t } = useLingui();
  const online = useOnline();
  const text = useNoticeText();
  const notices = useNotices();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    void loadNotices(memberId);
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void loadNotices(memberId);
    }, REFRESH_MS);
    // Back online: the list again.
    const back = () => void loadNotices(memberId);
    window.addEventListener("online", back);
    return () => {
      clearInterval(timer);
      window.removeEventListener("online", back);
    };
  }, [memberId]);

  const unread = notices.unread;
  const label = unread > 0 ? t`Notices, ${unread} unread` : t`Notices`;
  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) void loadNotices(memberId);
      }}
    >
      <Popover.Trigger aria-label={label} className={buttonClass("ghost", "relative", "icon")}>
        <Bell aria-hidden className="size-6" />
        {unread > 0 && (
          <span aria-hidden className="absolute top-1 right-1 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white">
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </Popover.Trigger>
      <PopoverPanel align="end" aria-label={t`Notices`} className="flex max-h-[70vh] w-[min(24rem,calc(100vw-1rem))] flex-col rounded-lg dark:bg-slate-900">
        <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-1 dark:border-slate-700">
          <h2 className="font-semibold">{t`Notices`}</h2>
          <Button variant="ghost" size="sm" disabled={unread === 0} onClick={() => void markAllNoticesRead(memberId)}>
            {t`Mark all read`}
          </Button>
        </div>
        {notices.list.length === 0 ? (
          <p className="p-4 text-sm text-slate-600 dark:text-slate-400">{online ? t`No notices yet.` : t`No notices kept on this device.`}</p>
        ) : (
          <ul className="overflow-y-auto">
            {notices.list.map((n) => (
              <li key={n.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <Link
                  to={noticeUrl(n)}
                  onClick={() => {
                    void markNoticeRead(memberId, n);
                    setOpen(false);
                  }}
                  className="flex min-h-11 gap-2 px-3 py-2 text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-primary dark:hover:bg-slate-800"
                >
                  <span aria-hidden className={`mt-1.5 size-2 shrink-0 rounded-full ${n.readAt === null ? "bg-primary" : "bg-transparent"}`} />
                  <span className="min-w-0 flex-1">
                    <span className={n.readAt === null ? "font-medium" : "text-slate-600 dark:text-slate-400"}>{text(n)}</span>
                    {n.readAt === null && <span className="sr-only">{t`(unread)`}</span>}
                    <span className="block text-xs text-slate-500 dark:text-slate-400">{formatTime(n.createTime, "YYYY-MM-DD HH:mm")}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </PopoverPanel>
    </Popover.Root>
  );
}
