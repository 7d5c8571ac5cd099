import { useLingui } from "@lingui/react/macro";
import { Bell } from "lucide-react";
import { Popover } from "radix-ui";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { noticeUrl, type NoticeItem } from "../../../shared/noticeFacts.ts";
import { formatTime } from "../../../shared/time.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { PopoverPanel } from "../../ui/PopoverPanel.tsx";
import { markAllNoticesRead, markNoticeRead, useNotices } from "./notices.ts";

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

/**
 * The bell's popover (Radix Popover), loaded the first time the bell is pointed at or used
 * (NoticeBell.tsx): the list of the newest notices (tap one: it is read, and its room or result
 * opens) and "mark all read".
 */
export default function NoticePopover({
  memberId,
  open,
  onOpenChange,
  label,
  badge,
}: {
  memberId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  label: string;
  badge: ReactNode;
}) {
  const { t } = useLingui();
  const online = useOnline();
  const text = useNoticeText();
  const notices = useNotices();
  const unread = notices.unread;
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger aria-label={label} className={buttonClass("ghost", "relative", "icon")}>
        <Bell aria-hidden className="size-6" />
        {badge}
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
                    onOpenChange(false);
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
