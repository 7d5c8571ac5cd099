import { Popover } from "radix-ui";
import type { ReactNode } from "react";
import { Button } from "./Button.tsx";
import { controlClass, type FieldControlProps } from "./form/Field.tsx";
import { PopoverPanel } from "./PopoverPanel.tsx";

/**
 * A form control that opens a popover to choose from (an icon grid, a checkbox list): the trigger
 * looks like the form's other controls and carries the field's id and error state; the popover
 * starts with a search box that filters what the caller lists below it.
 */
export function SearchPopover({
  control,
  open,
  onOpenChange,
  trigger,
  triggerClassName = "",
  contentClassName,
  search,
  onSearch,
  searchLabel,
  children,
}: {
  control: FieldControlProps;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactNode;
  triggerClassName?: string;
  /** The popover's width. */
  contentClassName: string;
  search: string;
  onSearch: (search: string) => void;
  searchLabel: string;
  children: ReactNode;
}) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger asChild>
        <Button {...control} variant="bare" className={`${controlClass(control["aria-invalid"])} flex items-center gap-2 text-start ${triggerClassName}`}>
          {trigger}
        </Button>
      </Popover.Trigger>
      <PopoverPanel align="start" className={`rounded-md p-2 text-slate-900 dark:bg-slate-800 dark:text-slate-100 ${contentClassName}`}>
        <input type="search" value={search} onChange={(e) => onSearch(e.target.value)} placeholder={searchLabel} aria-label={searchLabel} className={controlClass()} />
        {children}
      </PopoverPanel>
    </Popover.Root>
  );
}
