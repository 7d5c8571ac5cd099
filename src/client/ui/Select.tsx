import { Select as RadixSelect } from "radix-ui";
import { Check, ChevronDown } from "lucide-react";
import type { Ref } from "react";
import { controlClass } from "./form/Field.tsx";

export interface SelectOption {
  /** The option's value; "" is the empty choice ("please select", "all", "none"). */
  value: string;
  label: string;
  /** Indentation level (tree choices). */
  depth?: number;
}

/** Radix keeps "" for "nothing chosen": the empty choice travels under this key instead. */
const EMPTY = "\u0000empty";

/**
 * A single choice from a list, on Radix Select: a button labelled by its field that opens a
 * listbox (keys: arrows, type-ahead, Enter, Escape), portalled so it fits a phone's screen and
 * scrolls when long. The value is a string; `emptyLabel` adds the empty choice on top.
 */
export function Select({
  control,
  value,
  onChange,
  onBlur,
  options,
  emptyLabel,
  disabled,
  busy,
  name,
  ariaLabel,
  ref,
}: {
  control?: { id?: string; "aria-invalid"?: boolean; "aria-describedby"?: string };
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  options: readonly SelectOption[];
  /** The label of the empty choice ("" value); without it the list has none. */
  emptyLabel?: string;
  disabled?: boolean;
  busy?: boolean;
  name?: string;
  ariaLabel?: string;
  /** The trigger (a form library focuses it on an error). */
  ref?: Ref<HTMLButtonElement>;
}) {
  const all = emptyLabel === undefined ? options : [{ value: "", label: emptyLabel }, ...options];
  const known = all.some((o) => o.value === value);
  return (
    <RadixSelect.Root
      value={known ? value || EMPTY : ""}
      onValueChange={(v) => onChange(v === EMPTY ? "" : v)}
      onOpenChange={(open) => {
        if (!open) onBlur?.();
      }}
      disabled={disabled}
      name={name}
    >
      <RadixSelect.Trigger
        {...control}
        ref={ref}
        aria-label={ariaLabel}
        aria-busy={busy || undefined}
        className={`${controlClass(control?.["aria-invalid"])} flex items-center justify-between gap-2 text-start disabled:opacity-60 data-[placeholder]:text-slate-500 dark:data-[placeholder]:text-slate-400`}
      >
        <span className="truncate">
          <RadixSelect.Value placeholder={emptyLabel ?? ""} />
        </span>
        <RadixSelect.Icon asChild>
          <ChevronDown aria-hidden className="size-4 shrink-0" />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content
          position="popper"
          sideOffset={4}
          collisionPadding={8}
          className="z-50 max-h-[min(20rem,var(--radix-select-content-available-height))] w-[var(--radix-select-trigger-width)] min-w-40 max-w-[calc(100vw-1rem)] overflow-hidden rounded-md border border-slate-200 bg-white text-slate-900 shadow-lg dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100"
        >
          <RadixSelect.Viewport className="p-1">
            {all.map((option) => (
              <RadixSelect.Item
                key={option.value}
                value={option.value || EMPTY}
                className="relative flex min-h-11 cursor-default select-none items-center rounded py-2 pe-8 text-base outline-none data-[highlighted]:bg-slate-100 data-[state=checked]:font-medium dark:data-[highlighted]:bg-slate-700"
                style={{ paddingInlineStart: `${0.5 + (option.depth ?? 0) * 1.25}rem` }}
              >
                <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                <RadixSelect.ItemIndicator className="absolute end-2 inline-flex items-center">
                  <Check aria-hidden className="size-4" />
                </RadixSelect.ItemIndicator>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
