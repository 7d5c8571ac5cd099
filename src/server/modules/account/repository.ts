import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf, rowById } from "../../db/kysely.ts";
import type { MemberRow } from "../../plugins/auth.ts";

/** The member's own account rows (routes.ts calls these; no SQL lives in its handlers). */

/** The two point ledgers and the figure each one moves. */
export type Ledger = { table: "user_score_log"; column: "score" } | { table: "user_money_log"; column: "money" };
/** The member columns an address is bound in (a declaration of the routes, never input). */
export type Binding = "email" | "mobile";

const nowSeconds = sql<number>`extract(epoch from now())::bigint`;

/** A ledger entry; the memo is a key with parameters (memos.ts), shown in the reader's language. */
export interface LedgerEntry {
  memberId: number;
  amount: number;
  before: number;
  after: number;
  memo: { key: string; params: unknown };
}

/**
 * Adds `points` to the member's score and writes the score ledger's line for it, in the caller's
 * transaction (a completed lesson, a module's check-in); answers the score after.
 */
export async function awardPoints(q: Queryable, memberId: number, points: number, memo: LedgerEntry["memo"]): Promise<number> {
  const k = kyselyOf(q);
  const member = await k
    .updateTable("member")
    .set((eb) => ({ score: eb("score", "+", points) }))
    .where("id", "=", memberId)
    .returning("score")
    .executeTakeFirstOrThrow();
  const after = Number(member.score);
  await k
    .insertInto("user_score_log")
    .values({ user_id: memberId, score: points, before: after - points, after, memo_key: memo.key, memo_params: JSON.stringify(memo.params) })
    .execute();
  return after;
}

/** The ledger's entries of a member since `since`: when, and by how much. */
export async function ledgerMovesSince(q: Queryable, ledger: Ledger, memberId: number, since: number): Promise<{ create_time: number; v: number }[]> {
  return kyselyOf(q)
    .selectFrom(ledger.table)
    .select(["create_time", sql<number>`${sql.ref(ledger.column)}`.as("v")])
    .where("user_id", "=", memberId)
    .where("create_time", ">=", since)
    .execute();
}

export type LedgerRow = Record<"id" | "user_id" | "money" | "score" | "before" | "after" | "create_time", number | string> & {
  memo: string;
  memo_key: string;
  memo_params: unknown;
};

/** One page of a member's ledger, newest first, and how many entries it has in all. */
export async function ledgerPage(q: Queryable, ledger: Ledger, memberId: number, limit: number, offset: number): Promise<{ rows: LedgerRow[]; total: number }> {
  const k = kyselyOf(q);
  const total = await k
    .selectFrom(ledger.table)
    .select(sql<number>`count(*)::int`.as("n"))
    .where("user_id", "=", memberId)
    .executeTakeFirst();
  const rows = await k
    .selectFrom(ledger.table)
    .select([
      "id",
      "user_id",
      sql<number>`${sql.ref(ledger.column)}`.as(ledger.column),
      "before",
      "after",
      "memo",
      "memo_key",
      "memo_params",
      "create_time",
    ])
    .where("user_id", "=", memberId)
    .orderBy("id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows: rows as LedgerRow[], total: total?.n ?? 0 };
}

export interface ProfileChange {
  avatar: string;
  nickname: string;
  gender: number;
  birthday: string | null;
  motto: string;
}

/** Saves the member's profile and answers the whole member row as it now is. */
export async function updateProfile(q: Queryable, memberId: number, p: ProfileChange): Promise<MemberRow> {
  const row = await kyselyOf(q)
    .updateTable("member")
    .set({ ...p, update_time: nowSeconds })
    .where("id", "=", memberId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return row as unknown as MemberRow;
}

export async function passwordHashOf(q: Queryable, memberId: number): Promise<string | undefined> {
  const row = await rowById(q, "member", ["password_hash"], memberId);
  return row?.password_hash;
}

/** A new password hash; `touch` also marks the row updated (a reset by code does not). */
export async function setPasswordHash(q: Queryable, memberId: number, hash: string, touch: boolean): Promise<void> {
  await kyselyOf(q)
    .updateTable("member")
    .set(touch ? { password_hash: hash, update_time: nowSeconds } : { password_hash: hash })
    .where("id", "=", memberId)
    .execute();
}

/** Ends every session of the member (access and refresh tokens). */
export async function deleteMemberSessions(q: Queryable, memberId: number): Promise<void> {
  await kyselyOf(q).deleteFrom("token").where("user_id", "=", memberId).where("type", "in", ["user", "user-refresh"]).execute();
}

/** Records the short-lived proof that the member confirmed their current address. */
export async function saveAccountVerified(q: Queryable, channel: Binding, memberId: number, codeHash: string, now: number, expires: number): Promise<void> {
  await kyselyOf(q)
    .insertInto("verification_code")
    .values({ channel, target: String(memberId), event: "account_verified", code_hash: codeHash, create_time: now, expire_time: expires })
    .execute();
}

/** Spends that proof: true when an unused, unexpired one matched. */
export async function useAccountVerified(q: Queryable, channel: Binding, memberId: number, codeHash: string, now: number): Promise<boolean> {
  const rows = await kyselyOf(q)
    .updateTable("verification_code")
    .set({ used: true })
    .where("channel", "=", channel)
    .where("target", "=", String(memberId))
    .where("event", "=", "account_verified")
    .where("code_hash", "=", codeHash)
    .where(sql<boolean>`not used`)
    .where("expire_time", ">", now)
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** Whether another member already has `address` bound (case-insensitive). */
export async function bindingTaken(q: Queryable, type: Binding, address: string, memberId: number): Promise<boolean> {
  const row = await kyselyOf(q)
    .selectFrom("member")
    .select(sql<number>`1`.as("one"))
    .where(sql<boolean>`lower(${sql.ref(type)}) = lower(${address})`)
    .where("id", "<>", memberId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setBinding(q: Queryable, type: Binding, memberId: number, address: string): Promise<void> {
  await kyselyOf(q)
    .updateTable("member")
    .set(type === "email" ? { email: address, update_time: nowSeconds } : { mobile: address, update_time: nowSeconds })
    .where("id", "=", memberId)
    .execute();
}

/** The member an address is bound to (case-insensitive), with that address as stored. */
export async function memberByBinding(q: Queryable, type: Binding, address: string): Promise<{ id: number; username: string; target: string } | undefined> {
  return kyselyOf(q)
    .selectFrom("member")
    .select(["id", "username", sql<string>`${sql.ref(type)}`.as("target")])
    .where(sql<boolean>`lower(${sql.ref(type)}) = lower(${address})`)
    .executeTakeFirst();
}
