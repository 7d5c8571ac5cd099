/**
 * Field declarations both sides of the back office share: a resource's columns that every
 * table writes the same way. The server makes its list fields of them (crud/resources/fields.ts),
 * the client's tags and forms use the same values (e.g. a status is enabled or disabled).
 */

/** Types of a listed field: how a search value is read and which operators fit (the server's FieldType). */
export type SharedFieldType = "int" | "bigint" | "time" | "text" | "bool" | "enum" | "date";

export interface FieldDecl {
  type: SharedFieldType;
  /** The values of an `enum` field. */
  values?: readonly string[];
}

/** The status of a row an admin may switch off (most back-office tables). */
export const STATUS_VALUES = ["enable", "disable"] as const;

/** The columns most tables have, each declared once: row id, tree parent, order, status, times. */
export const STANDARD_FIELDS = {
  id: { type: "int" },
  pid: { type: "int" },
  weigh: { type: "int" },
  status: { type: "enum", values: STATUS_VALUES },
  create_time: { type: "time" },
  update_time: { type: "time" },
} as const satisfies Record<string, FieldDecl>;

export type StandardField = keyof typeof STANDARD_FIELDS;
