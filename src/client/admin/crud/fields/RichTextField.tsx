import { lazy, Suspense } from "react";
import type { FieldControlProps } from "../../../ui/form/Field.tsx";
import { Spinner } from "../../../ui/Spinner.tsx";

/** TipTap is large: its chunk loads when a form with a rich-text field opens, never in the first load. */
const RichTextEditor = lazy(() => import("./RichTextEditor.tsx"));

/** The `richText` form field: HTML edited with TipTap (sanitised by the server when stored). */
export function RichTextField({ control, label, value, onChange, error }: { control: FieldControlProps; label: string; value: unknown; onChange: (value: unknown) => void; error?: unknown }) {
  return (
    <Suspense fallback={<Spinner className="my-6 size-6" />}>
      <RichTextEditor control={control} label={label} value={typeof value === "string" ? value : ""} onChange={onChange} error={error} />
    </Suspense>
  );
}
