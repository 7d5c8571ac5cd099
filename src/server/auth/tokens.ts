import { createHash, randomBytes } from "node:crypto";
import type { Queryable } from "../db/index.ts";

export type TokenType = "admin" | "admin-refresh" | "user" | "user-refresh";

export interface TokenTtls {
  /** Access tokens, seconds (framework default 3 days). */
  access: number;
  /** Refresh tokens, seconds (framework default 30 days). */
  refresh: number;
}

export const hashToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

const now = () => Math.floor(Date.now() / 1000);

/** A fresh random token; only its hash is stored. */
export async function issueToken(db: Queryable, type: TokenType, userId: number, ttlSeconds: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const t = now();
  await db.query("insert into token (token_hash, type, user_id, create_time, expire_time) values ($1, $2, $3, $4, $5)", [
    hashToken(token),
    type,
    userId,
    t,
    t + ttlSeconds,
  ]);
  return token;
}

export type TokenCheck = { status: "valid"; userId: number } | { status: "expired"; userId: number } | { status: "invalid" };

export async function checkToken(db: Queryable, token: string | undefined, type: TokenType): Promise<TokenCheck> {
  if (!token || token.length > 200) return { status: "invalid" };
  const { rows } = await db.query<{ user_id: number; expire_time: number }>(
    "select user_id, expire_time from token where token_hash = $1 and type = $2",
    [hashToken(token), type],
  );
  const row = rows[0];
  if (!row) return { status: "invalid" };
  return row.expire_time > now() ? { status: "valid", userId: row.user_id } : { status: "expired", userId: row.user_id };
}

export async function revokeToken(db: Queryable, token: string | undefined, type: TokenType): Promise<void> {
  if (!token) return;
  await db.query("delete from token where token_hash = $1 and type = $2", [hashToken(token), type]);
}

/** Expired rows are useless: dropped now and then (cheap, indexed). */
export async function purgeExpiredTokens(db: Queryable): Promise<number> {
  const { rowCount } = await db.query("delete from token where expire_time < $1", [now() - 86_400]);
  return rowCount;
}
