import { useState } from "react";
import type { CustomFieldProps } from "../crud/types.ts";
import { controlClass } from "../../ui/form/Field.tsx";

/** Cents -> "12.34"; "" for none. */
const yuan = (cents: unknown) => (typeof cents === "number" && Number.isFinite(cents) ? (cents / 100).toFixed(2) : "");

/**
 * A price kept in cents and typed as money ("19.90"): the value sent is whole cents; text that is
 * not an amount with at most 2 decimals is sent as NaN, which the form's schema refuses with its message.
 */
export function MoneyField({ value, onChange, control }: CustomFieldProps) {
  const [text, setText] = useState(() => yuan(value ?? 0));
  return (
    <input
      {...control}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      value={text}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        const trimmed = next.trim();
        if (trimmed === "") onChange(0);
        else if (/^\d{1,9}(\.\d{0,2})?$/.test(trimmed)) onChange(Math.round(Number(trimmed) * 100));
        else onChange(Number.NaN);
      }}
      className={`${controlClass(control["aria-invalid"])} max-w-48 tabular-nums`}
    />
  );
}
