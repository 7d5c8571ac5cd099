/**
 * A refused submit of a hand-written form: the focus goes to the first of `names` (listed in
 * the form's order) that has an error, so a keyboard or screen-reader user lands on what to fix.
 * Answers whether any had one (then the form is not sent).
 */
export function focusFirstError<K extends string>(form: HTMLFormElement | null, names: readonly K[], errors: Partial<Record<K, unknown>>): boolean {
  const first = names.find((k) => errors[k]);
  if (!first) return false;
  const el = form?.elements.namedItem(first);
  if (el instanceof HTMLElement) el.focus();
  return true;
}
