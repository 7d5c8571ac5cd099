import type { CrudFormField } from "./types.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** Unix seconds -> the local "YYYY-MM-DDTHH:mm" a datetime-local input shows ("" for none). */
export function secondsToLocalInput(seconds: unknown): string {
  const n = typeof seconds === "string" && seconds.trim() !== "" ? Number(seconds) : seconds;
  if (typeof n !== "number" || !Number.isFinite(n) || n <= 0) return "";
  const d = new Date(n * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local input's value -> unix seconds (null for an empty or unreadable one). */
export function localInputToSeconds(value: string): number | null {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/** The value a form field starts from: the row's (edit) or the field's initial one (add). */
export function initialValue(field: CrudFormField, row: Record<string, unknown> | null): unknown {
  const value = row ? row[field.field] : field.initial;
  switch (field.kind) {
    case "switch":
      return value === true || value === 1 || value === "1" ? 1 : 0;
    case "number":
      return value === undefined || value === null || value === "" ? null : Number(value);
    case "select":
    case "radio":
    case "remoteSelect":
      return value === undefined || value === "" ? null : value;
    case "treeSelect":
      return Number(value ?? 0) || 0;
    case "checkboxTree":
      return value === "*" ? "*" : Array.isArray(value) ? value : [];
    case "multiSelect":
      return Array.isArray(value) ? value : [];
    case "datetime":
      return secondsToLocalInput(value);
    case "images":
    case "area":
      // Lists (older rows may hold comma-separated text).
      return Array.isArray(value) ? value : typeof value === "string" && value !== "" ? value.split(",") : [];
    case "checkboxList":
      return value === "*" ? "*" : Array.isArray(value) ? value : [];
    case "password":
      // Never shown back: empty means "keep the current one" on edit.
      return "";
    case "custom":
      // The component reads its value as the row holds it (a list stays a list).
      return value === undefined ? null : value;
    default:
      return value === undefined || value === null ? "" : String(value);
  }
}

/** The fields shown for these values (a field's `when` decides). */
export function shownFields(fields: CrudFormField[], values: Record<string, unknown>): CrudFormField[] {
  return fields.filter((f) => !f.when || f.when(values));
}

/**
 * The form's values as the server takes them: datetimes as unix seconds, an empty edit password
 * left out, and so are fields hidden by their `when`.
 */
export function outgoingValues(fields: CrudFormField[], values: Record<string, unknown>, editing: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of shownFields(fields, values)) {
    const value = values[field.field];
    if (field.kind === "datetime") out[field.field] = localInputToSeconds(typeof value === "string" ? value : "");
    else if (field.kind === "password" && editing && !value) continue;
    else if (field.kind === "switch" && field.boolean) out[field.field] = value === 1;
    else out[field.field] = value;
  }
  return out;
}
