import type { Ref } from "react";
import { Button } from "./Button.tsx";
import type { FieldControlProps } from "./form/Field.tsx";

/** An on / off switch (a button with role "switch"); the caller keeps the value in whatever shape it stores (1 / 0, true / false). */
export function Switch({ control, checked, onToggle, disabled, ref }: { control: FieldControlProps; checked: boolean; onToggle: () => void; disabled?: boolean; ref?: Ref<HTMLButtonElement> }) {
  return (
    <Button
      {...control}
      variant="bare"
      role="switch"
      aria-checked={checked}
      ref={ref}
      disabled={disabled}
      onClick={onToggle}
      className={`relative inline-flex h-7 w-12 items-center rounded-full ${checked ? "bg-primary" : "bg-slate-300 dark:bg-slate-600"}`}
    >
      <span aria-hidden className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${checked ? "translate-x-6" : "translate-x-1"}`} />
    </Button>
  );
}
