import { useWatch, type Control, type FieldValues } from "react-hook-form";
import type { CustomFieldProps } from "../types.ts";

/** A "custom" form field: the definition's component, given the form's current values too. */
export function CustomField({
  component: Component,
  form,
  ...props
}: Omit<CustomFieldProps, "values"> & { component: React.ComponentType<CustomFieldProps>; form: Control<FieldValues> }) {
  const values = useWatch({ control: form }) as Record<string, unknown>;
  return <Component {...props} values={values} />;
}
