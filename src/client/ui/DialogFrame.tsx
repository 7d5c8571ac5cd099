import { useLingui } from "@lingui/react/macro";
import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import type { ReactNode } from "react";
import { DiscardScopeProvider, useDiscardScope } from "./discardGuard.tsx";

const widths = { sm: "w-[min(92vw,26rem)]", lg: "w-[min(96vw,40rem)]", xl: "w-[min(96vw,64rem)]" } as const;

/**
 * On a phone a form's dialog takes the whole screen and a short one the screen's width at its
 * foot (a sheet), rather than a box a few pixels narrower than the screen with the page around it.
 */
const phone = {
  sm: "max-md:inset-x-0 max-md:top-auto max-md:bottom-0 max-md:w-full max-md:translate-x-0 max-md:translate-y-0 max-md:rounded-b-none",
  lg: "max-md:inset-0 max-md:h-dvh max-md:max-h-none max-md:w-full max-md:translate-x-0 max-md:translate-y-0 max-md:rounded-none",
  xl: "max-md:inset-0 max-md:h-dvh max-md:max-h-none max-md:w-full max-md:translate-x-0 max-md:translate-y-0 max-md:rounded-none",
} as const;

/**
 * A form's footer (ui/FormFooter) stays at the foot of the panel while a long form scrolls, so
 * Save is in reach without scrolling to the end; it spans the panel over the padding.
 */
const stickyFooter = [
  "[&_[data-form-footer]]:sticky [&_[data-form-footer]]:-bottom-5 [&_[data-form-footer]]:-mx-5 [&_[data-form-footer]]:-mb-5",
  "[&_[data-form-footer]]:border-t [&_[data-form-footer]]:border-slate-200 [&_[data-form-footer]]:bg-white [&_[data-form-footer]]:px-5 [&_[data-form-footer]]:py-3",
  "dark:[&_[data-form-footer]]:border-slate-700 dark:[&_[data-form-footer]]:bg-slate-900",
].join(" ");

/**
 * A modal dialog: overlay, centred panel, title and close button; the content is the caller's.
 * `size` "lg" for forms; a panel taller than the screen scrolls inside (phones), its form's
 * footer kept in view. A form inside that reports unsaved changes (useDirtyForm) makes Escape, ×
 * and a click outside ask before closing.
 */
export function DialogFrame({
  open,
  onOpenChange,
  title,
  size = "sm",
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  size?: keyof typeof widths;
  children: ReactNode;
}) {
  const { t } = useLingui();
  const discard = useDiscardScope(() => onOpenChange(false));
  return (
    <>
      <ModalPanel
        open={open}
        onOpenChange={(next) => (next ? onOpenChange(true) : discard.scope.requestClose())}
        className={`fixed top-1/2 left-1/2 z-50 max-h-[92dvh] ${widths[size]} -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900 dark:text-slate-100 ${phone[size]} ${stickyFooter}`}
      >
        <div className="mb-4 flex items-center justify-between">
          <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
          <Dialog.Close aria-label={t`Close`} className="rounded p-2 hover:bg-slate-100 dark:hover:bg-slate-800">
            <X aria-hidden className="size-4" />
          </Dialog.Close>
        </div>
        <DiscardScopeProvider scope={discard.scope}>{children}</DiscardScopeProvider>
      </ModalPanel>
      {discard.confirm}
    </>
  );
}

/**
 * The modal under DialogFrame and the back office's menu drawer: the dimmed overlay and a panel
 * placed by `className`; the caller gives it its Dialog.Title.
 */
export function ModalPanel({ open, onOpenChange, className, children }: { open: boolean; onOpenChange: (open: boolean) => void; className: string; children: ReactNode }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content aria-describedby={undefined} className={className}>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
