import { useId, type ComponentPropsWithRef, type ReactNode } from "react";

/** The look of a text-like control (input, select, textarea), red-bordered when it has an error. */
export function controlClass(error?: unknown): string {
  return `block min-h-11 w-full rounded-md border bg-white px-3 text-base outline-none focus-visible:ring-2 focus-visible:ring-primary dark:bg-slate-800 ${
    error ? "border-red-500" : "border-slate-300 dark:border-slate-600"
  }`;
}

/** What a control inside a FieldFrame spreads on itself to be labelled and described. */
export interface FieldControlProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * A label, any control and its error next to it (announced to screen readers). The control is
 * rendered by `children` with the ids that tie the three together; `group` labels a set of
 * controls (radios) with a fieldset legend instead.
 */
export function FieldFrame({
  label,
  error,
  hint,
  group,
  children,
}: {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  group?: boolean;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const control: FieldControlProps = { id, "aria-invalid": error ? true : undefined, "aria-describedby": error ? errorId : undefined };
  const labelClass = "block text-sm font-medium text-slate-800 dark:text-slate-200";
  const message = error && (
    <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
      {error}
    </p>
  );
  if (group) {
    return (
      <fieldset className="min-w-0 space-y-1" aria-describedby={control["aria-describedby"]}>
        <legend className={labelClass}>{label}</legend>
        {children(control)}
        {hint && <p className="text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
        {message}
      </fieldset>
    );
  }
  return (
    <div className="space-y-1">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children(control)}
      {hint && <p className="text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
      {message}
    </div>
  );
}

/**
 * A labelled text input with its error next to it (announced to screen readers). Takes a `ref`
 * like the input itself, so react-hook-form's `register` spreads on it.
 */
export function Field({ label, error, ...input }: { label: ReactNode; error?: string | null } & ComponentPropsWithRef<"input">) {
  return (
    <FieldFrame label={label} error={error}>
      {(control) => <input {...control} className={controlClass(error)} {...input} />}
    </FieldFrame>
  );
}
