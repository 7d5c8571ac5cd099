import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf, rowById } from "../../db/kysely.ts";
import { nowSeconds } from "../repository.ts";

/** The member figure an account log moves (a declaration of the resource, never input). */
export type AccountFigure = "money" | "score";

/** The member's balance or points, its row locked until the transaction ends; undefined when no such member. */
export async function lockedFigure(q: Queryable, column: AccountFigure, memberId: number): Promise<string | number | undefined> {
  const row = await kyselyOf(q)
    .selectFrom("member")
    .select(sql<string | number>`${sql.ref(column)}`.as("figure"))
    .where("id", "=", memberId)
    .forUpdate()
    .executeTakeFirst();
  return row?.figure;
}

export async function setFigure(q: Queryable, column: AccountFigure, memberId: number, value: number): Promise<void> {
  await kyselyOf(q).updateTable("member").set(column, value).set("update_time", nowSeconds).where("id", "=", memberId).execute();
}

export async function memberNames(q: Queryable, memberId: unknown): Promise<{ username: string; nickname: string } | undefined> {
  return rowById(q, "member", ["username", "nickname"], memberId as number);
}
