import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/** The table of groups that grant a tree's rules (a declaration of the resource, never input). */
export type GroupTable = "admin_group" | "user_group";

/** The groups granting some rules but not all ("*"), locked until the transaction ends. */
export async function lockedGroupsWithRules(q: Queryable, table: GroupTable): Promise<{ id: number; rules: string }[]> {
  return kyselyOf(q).selectFrom(table).select(["id", "rules"]).where("rules", "<>", "*").where("rules", "<>", "").forUpdate().execute();
}

export async function setGroupRules(q: Queryable, table: GroupTable, id: number, rules: string): Promise<void> {
  await kyselyOf(q).updateTable(table).set("rules", rules).where("id", "=", id).execute();
}
