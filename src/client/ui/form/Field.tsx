import { useId, type InputHTMLAttributes, type ReactNode } from "react";

/** A labelled text input with its error next to it (announced to screen readers). */
export function Field({ label, error, ...input }: { label: ReactNode; error?: string | null } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`block min-h-11 w-full rounded-md border bg-white px-3 text-base outline-none focus-visible:ring-2 focus-visible:ring-primary dark:bg-slate-800 ${
          error ? "border-red-500" : "border-slate-300 dark:border-slate-600"
        }`}
        {...input}
      />
      {error && (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
