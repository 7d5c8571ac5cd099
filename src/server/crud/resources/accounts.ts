import { hashPassword } from "../../auth/password.ts";
import type { Row } from "../resource.ts";

/** The row with the password's hash when a password was given (on edit, none keeps the old one). */
export async function withPassword(row: Row, password: string | undefined | null): Promise<Row> {
  return password ? { ...row, password_hash: await hashPassword(password) } : row;
}
