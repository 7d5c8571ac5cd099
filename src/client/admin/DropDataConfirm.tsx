import type { ReactNode } from "react";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";

/**
 * Asks before removing something that owns database tables (a generated screen, a module): what
 * goes, and a box to tick to drop the tables and their rows too, which are kept otherwise.
 */
export function DropDataConfirm({
  open,
  onCancel,
  title,
  notice,
  dropLabel,
  drop,
  onDropChange,
  confirmLabel,
  busy,
  onConfirm,
}: {
  open: boolean;
  onCancel: () => void;
  title: ReactNode;
  notice: ReactNode;
  dropLabel: ReactNode;
  drop: boolean;
  onDropChange: (drop: boolean) => void;
  confirmLabel: ReactNode;
  busy: boolean;
  onConfirm: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => !o && onCancel()}
      title={title}
      description={
        <span className="block space-y-2">
          <span className="block">{notice}</span>
          <label className="flex items-center gap-2 text-red-700 dark:text-red-400">
            <input type="checkbox" checked={drop} onChange={(e) => onDropChange(e.target.checked)} />
            {dropLabel}
          </label>
        </span>
      }
      confirmLabel={confirmLabel}
      busy={busy}
      onConfirm={onConfirm}
    />
  );
}
