import type { ReactElement, ReactNode } from "react";
import { Controller, type ControllerRenderProps, type FieldValues, type Path, type UseFormReturn } from "react-hook-form";
import { FieldFrame, type FieldControlProps } from "./Field.tsx";

/**
 * One field of a react-hook-form form in a FieldFrame: the label, hint and the field's error
 * (from the form's state), and the control `children` draws with the frame's ids, the form's
 * field binding and that error.
 */
export function ControlledField<T extends FieldValues>({
  form,
  name,
  label,
  hint,
  group,
  children,
}: {
  form: UseFormReturn<T>;
  name: Path<T>;
  label: ReactNode;
  hint?: ReactNode;
  group?: boolean;
  children: (control: FieldControlProps, field: ControllerRenderProps<T, Path<T>>, error: string | undefined) => ReactElement;
}) {
  const message = form.formState.errors[name]?.message;
  const error = typeof message === "string" ? message : undefined;
  return (
    <FieldFrame label={label} hint={hint} error={error ?? null} group={group}>
      {(control) => <Controller control={form.control} name={name} render={({ field }) => children(control, field, error)} />}
    </FieldFrame>
  );
}
