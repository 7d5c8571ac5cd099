import { hashPassword } from "../../auth/password.ts";
import type { FieldDef, Row } from "../resource.ts";
import { standardFields } from "./fields.ts";

/** The fields every account (admin or member) lists the same way, first in its list. */
export const ACCOUNT_FIELDS = {
  ...standardFields("id"),
  username: { column: "t.username", type: "text" },
  nickname: { column: "t.nickname", type: "text" },
  email: { column: "t.email", type: "text" },
  mobile: { column: "t.mobile", type: "text" },
  avatar: { column: "t.avatar", type: "text", operators: ["eq", "ne", "NULL", "NOT NULL"] },
} satisfies Record<string, FieldDef>;

/** An account's status and last login. */
export const LOGIN_FIELDS = {
  ...standardFields("status"),
  last_login_time: { column: "t.last_login_time", type: "time" },
  last_login_ip: { column: "t.last_login_ip", type: "text" },
} satisfies Record<string, FieldDef>;

/** The row with the password's hash when a password was given (on edit, none keeps the old one). */
export async function withPassword(row: Row, password: string | undefined | null): Promise<Row> {
  return password ? { ...row, password_hash: await hashPassword(password) } : row;
}
