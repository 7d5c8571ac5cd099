import { useLingui } from "@lingui/react/macro";
import type { LucideIcon } from "lucide-react";
import { X } from "lucide-react";
import { Popover } from "radix-ui";
import type { ReactNode } from "react";
import { PopoverPanel } from "../../ui/PopoverPanel.tsx";

const TONES = {
  amber: "bg-amber-100 text-amber-900",
  red: "bg-red-100 text-red-900",
} as const;

/**
 * A header badge that opens a panel about the member's changes on this device (waiting to sync,
 * or not accepted): a phone shows `short`, a wider screen `label`, which is the button's name
 * either way; the panel, named `title`, opens with `intro` and a close button, then `children`.
 */
export function SyncPopover({
  label,
  short,
  icon: Icon,
  tone,
  title,
  intro,
  children,
}: {
  label: string;
  short: ReactNode;
  icon: LucideIcon;
  tone: keyof typeof TONES;
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <Popover.Root>
      <Popover.Trigger
        aria-label={label}
        className={`inline-flex min-h-8 items-center gap-1 rounded px-2 py-0.5 text-xs whitespace-nowrap outline-none focus-visible:ring-2 focus-visible:ring-primary ${TONES[tone]}`}
      >
        <Icon aria-hidden className="size-3.5" />
        <span aria-hidden className="sm:hidden">
          {short}
        </span>
        <span aria-hidden className="hidden sm:inline">
          {label}
        </span>
      </Popover.Trigger>
      <PopoverPanel align="end" sideOffset={6} collisionPadding={0} aria-label={title} className="w-[min(24rem,calc(100vw-2rem))] rounded-lg p-3 text-sm dark:bg-slate-900">
        <div className="mb-2 flex items-start justify-between gap-2">
          <p className="text-slate-700 dark:text-slate-200">{intro}</p>
          <Popover.Close aria-label={t`Close`} className="rounded p-1 hover:bg-slate-100 dark:hover:bg-slate-800">
            <X aria-hidden className="size-4" />
          </Popover.Close>
        </div>
        {children}
      </PopoverPanel>
    </Popover.Root>
  );
}
