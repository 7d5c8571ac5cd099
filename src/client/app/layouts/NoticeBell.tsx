import { useLingui } from "@lingui/react/macro";
import { Bell } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { withCommonCatalog } from "../../i18n/index.ts";
import { Button } from "../../ui/Button.tsx";
import { loadNotices, useNotices } from "./notices.ts";

// The list's popover (Radix Popover and its positioning) loads when the bell is first pointed at or used.
const loadPopover = withCommonCatalog(() => import("./NoticePopover.tsx"));
const NoticePopover = lazy(loadPopover);

const REFRESH_MS = 120_000;

/**
 * The member's notices in the header (loaded only for signed-in members): a bell with the unread
 * count, and on a tap the list of the newest notices (NoticePopover.tsx), each rendered in the
 * reader's language from the facts the server kept. The last list is kept on the device, so
 * offline the bell shows it without errors. Until it is first used the bell is a plain button,
 * so a member's page does not load and set up the popover's code on the way to its first screen
 * (Lighthouse counted it in every member page's blocking time).
 */
export default function NoticeBell({ memberId }: { memberId: number }) {
  const { t } = useLingui();
  const unread = useNotices((s) => s.unread);
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);

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

  const label = unread > 0 ? t`Notices, ${unread} unread` : t`Notices`;
  const badge = unread > 0 && (
    <span aria-hidden className="absolute top-1 right-1 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white">
      {unread > 99 ? "99+" : unread}
    </span>
  );
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) void loadNotices(memberId);
  };
  const button = (
    <Button
      variant="ghost"
      size="icon"
      className="relative"
      aria-label={label}
      aria-haspopup="dialog"
      aria-expanded={false}
      onPointerEnter={() => void loadPopover()}
      onFocus={() => void loadPopover()}
      onClick={() => {
        setUsed(true);
        onOpenChange(true);
      }}
    >
      <Bell aria-hidden className="size-6" />
      {badge}
    </Button>
  );
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <NoticePopover memberId={memberId} open={open} onOpenChange={onOpenChange} label={label} badge={badge} />
    </Suspense>
  );
}
