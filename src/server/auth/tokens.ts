import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from "node:crypto";
import { now as clockNow } from "../clock.ts";
import type { Database, Queryable } from "../db/index.ts";
import {
  claimRefreshToken,
  deleteSession,
  deleteSessionsOfTokens,
  deleteTokensExpiredBefore,
  insertToken as insertTokenRow,
  refreshTokenRow,
  unexchangedTokenCount,
} from "./repository.ts";

export type TokenType = "admin" | "admin-refresh" | "user" | "user-refresh";
export type Side = "admin" | "user";

export interface TokenTtls {
  /** Access tokens, seconds (framework default 3 days). */
  access: number;
  /** Refresh tokens, seconds (framework default 30 days). */
  refresh: number;
}

/**
 * How long a refresh token that was just exchanged still answers (with the same new pair), in
 * seconds: two tabs refreshing at the same moment, or a refresh whose answer was lost on a bad
 * network and is sent again, do not end the session. After that, a reuse is taken as theft.
 */
export const REFRESH_GRACE_SECONDS = 30;

export const hashToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

const now = () => Math.floor(clockNow() / 1000);
const newToken = () => randomBytes(32).toString("base64url");
/** Longer header values are not looked up (a token is 43 characters). */
export const MAX_TOKEN_LENGTH = 200;

/** A new session id: the access token of a login and its refresh token share it. */
export const newSessionId = (): string => randomUUID();

async function insertToken(db: Queryable, token: string, type: TokenType, userId: number, sessionId: string, expireTime: number): Promise<void> {
  await insertTokenRow(db, { token_hash: hashToken(token), type, user_id: userId, session_id: sessionId, create_time: now(), expire_time: expireTime });
}

/** A fresh random token in a session (a new one unless given); only its hash is stored. */
export async function issueToken(db: Queryable, type: TokenType, userId: number, ttlSeconds: number, sessionId = newSessionId()): Promise<string> {
  const token = newToken();
  await insertToken(db, token, type, userId, sessionId, now() + ttlSeconds);
  return token;
}

/** A login's session: an access token, and a refresh token when "keep me logged in" is ticked ("" otherwise). */
export async function issueSession(db: Queryable, side: Side, userId: number, ttls: TokenTtls, keep: boolean): Promise<{ token: string; refreshToken: string }> {
  const sessionId = newSessionId();
  const token = await issueToken(db, side, userId, ttls.access, sessionId);
  const refreshToken = keep ? await issueToken(db, `${side}-refresh`, userId, ttls.refresh, sessionId) : "";
  return { token, refreshToken };
}

/**
 * Ends the sessions these tokens (access or refresh, expired or not) belong to: every token of
 * those sessions on this side goes. Other sessions of the same account stay.
 */
export async function endSessions(db: Queryable, side: Side, tokens: (string | undefined)[]): Promise<number> {
  const hashes = tokens.filter((t): t is string => typeof t === "string" && t.length > 0 && t.length <= MAX_TOKEN_LENGTH).map(hashToken);
  if (hashes.length === 0) return 0;
  return deleteSessionsOfTokens(db, side, hashes);
}

// ---------------------------------------------------------------------------------------------
// Refresh token rotation

interface Pair {
  token: string;
  refreshToken: string;
}

/**
 * The pair a refresh token was exchanged for, sealed (AES-256-GCM) with a key derived from that
 * refresh token. The database holds only the token's SHA-256, a different derivation, so the
 * sealed pair is readable only by whoever presents the old token again within the grace.
 */
const successorKey = (refreshToken: string) => createHash("sha256").update("examhub refresh successor\0").update(refreshToken, "utf8").digest();

export function sealSuccessor(refreshToken: string, pair: Pair): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", successorKey(refreshToken), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify([pair.token, pair.refreshToken]), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function openSuccessor(refreshToken: string, sealed: string): Pair | null {
  try {
    const raw = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", successorKey(refreshToken), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const [token, refreshToken2] = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")) as unknown[];
    return typeof token === "string" && typeof refreshToken2 === "string" ? { token, refreshToken: refreshToken2 } : null;
  } catch {
    return null;
  }
}

export type RefreshOutcome =
  | { status: "rotated"; side: Side; userId: number; sessionId: string; token: string; refreshToken: string }
  /** Unknown, expired, or its session has ended. */
  | { status: "invalid" }
  /** An exchanged refresh token used again after the grace: its session was ended. */
  | { status: "reused"; side: Side; userId: number };

/**
 * `POST /api/common/refreshToken`: a refresh token is exchanged once for a new access token
 * and a new refresh token in the same session (the new refresh token keeps the session's
 * expiry). The old access token is left to expire: requests still in flight with it get 409
 * and replay with the new one.
 *
 * The exchange is claimed atomically (`rotated_at is null`), so of two concurrent refreshes one
 * rotates and the other finds the token exchanged. Within REFRESH_GRACE_SECONDS the exchanged
 * token answers with the same pair again (no second branch of the session appears); after that,
 * or when its pair was exchanged in turn, a reuse means two parties hold the session's tokens:
 * the session ends.
 *
 * `side` is the side the client holds the token for: a refresh token of the other side is
 * unknown here (invalid, and left as it is). Without it the token's own side counts (older
 * clients).
 */
export async function rotateRefreshToken(
  db: Database,
  presented: string,
  ttls: TokenTtls,
  { side: wanted, graceSeconds = REFRESH_GRACE_SECONDS }: { side?: Side; graceSeconds?: number } = {},
): Promise<RefreshOutcome> {
  if (!presented || presented.length > MAX_TOKEN_LENGTH) return { status: "invalid" };
  const hash = hashToken(presented);
  const types = wanted ? [`${wanted}-refresh`] : ["admin-refresh", "user-refresh"];
  const read = () => refreshTokenRow(db, hash, types);
  let row = await read();
  const t = now();
  if (!row || row.expire_time <= t) return { status: "invalid" };
  const side: Side = row.type === "admin-refresh" ? "admin" : "user";

  if (row.rotated_at === null) {
    const pair = { token: newToken(), refreshToken: newToken() };
    const current = row;
    const won = await db.transaction(async (tx) => {
      if (!(await claimRefreshToken(tx, hash, t, sealSuccessor(presented, pair)))) return false;
      await insertToken(tx, pair.token, side, current.user_id, current.session_id, t + ttls.access);
      await insertToken(tx, pair.refreshToken, `${side}-refresh`, current.user_id, current.session_id, current.expire_time);
      return true;
    });
    if (won) return { status: "rotated", side, userId: current.user_id, sessionId: current.session_id, ...pair };
    // A concurrent refresh with the same token won: answer as a reuse within the grace.
    row = await read();
    if (!row) return { status: "invalid" };
  }

  const rotatedAt = row.rotated_at ?? t;
  const pair = row.successor ? openSuccessor(presented, row.successor) : null;
  if (pair && t - rotatedAt <= graceSeconds) {
    // The same pair again, if the session still has it unused (not ended, not exchanged again).
    const unused = await unexchangedTokenCount(db, row.session_id, [hashToken(pair.token), hashToken(pair.refreshToken)]);
    if (unused === 2) return { status: "rotated", side, userId: row.user_id, sessionId: row.session_id, ...pair };
    return { status: "invalid" };
  }
  await deleteSession(db, row.session_id, side);
  return { status: "reused", side, userId: row.user_id };
}

/** Expired rows are useless: dropped now and then (cheap, indexed). */
export async function purgeExpiredTokens(db: Queryable): Promise<number> {
  return deleteTokensExpiredBefore(db, now() - 86_400);
}
