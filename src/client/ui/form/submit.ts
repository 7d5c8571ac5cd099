import type { BaseSyntheticEvent } from "react";

/**
 * A form's onSubmit through react-hook-form (`handleSubmit`, the form's): `first` runs on every
 * attempt (clearing the last refusal shown), `onValid` with the values once they pass the checks.
 */
export function submitWith<V>(handleSubmit: (onValid: (values: V) => unknown) => (event?: BaseSyntheticEvent) => Promise<unknown>, onValid: (values: V) => void, first?: () => void) {
  return (event: BaseSyntheticEvent) => {
    first?.();
    void handleSubmit((values) => onValid(values))(event);
  };
}
