import { sql, type Insertable } from "kysely";
import { batcherOf } from "../db/batch.ts";
import { prepared, runPrepared, type PreparedStatement, type Queryable } from "../db/index.ts";
import { excludedValues, kyselyOf, type DB } from "../db/kysely.ts";
import type { AdminRow, MemberRow } from "../plugins/auth.ts";
import type { Side, TokenType } from "./tokens.ts";

/**
 * The SQL of authentication: login counters, captchas, codes, tokens, the outbox and the
 * per-request token lookup. The files beside it keep the rules and call these.
 */

export type AccountKind = "admin" | "member";

// ---------------------------------------------------------------------------------------------
// Per-request authentication

/** The account behind a token: its row (null columns when the account is gone) and the token's expiry. */
export type AccountByToken<T> = T & { status: string | null; token_expire_time__: number };

// The columns of AdminRow and MemberRow, named: the account's password hash never rides along
// with a request, and a prepared statement's result stays the same when a migration adds a column.
// Every authenticated request runs one of these: prepared, so PostgreSQL plans it once per connection.
const ACCOUNT_COLUMNS: { [K in keyof AccountOf]: string } = {
  admin: "a.id, a.username, a.nickname, a.avatar, a.email, a.mobile, a.motto, a.is_super, a.is_company, a.company_id, a.last_login_time, a.status",
  member: `a.id, a.group_id, a.company_id, a.duty_id, a.username, a.nickname, a.email, a.mobile, a.avatar, a.gender, a.birthday, a.money, a.score,
       a.motto, a.last_login_time, a.last_login_ip, a.join_time, a.status`,
};
/** The token, unexchanged, joined to its account (`$1` one hash or, with `any`, an array of them; `$2` the token type). */
const byTokenSql = (table: AccountKind, hashes: "= $1" | "= any($1::text[])") =>
  `select ${hashes === "= $1" ? "" : "t.token_hash as token_hash__, "}${ACCOUNT_COLUMNS[table]},
       t.expire_time as token_expire_time__
     from token t left join ${table} a on a.id = t.user_id
     where t.token_hash ${hashes} and t.type = $2 and t.rotated_at is null`;

type ByToken = [tokenHash: string, type: TokenType];
const ACCOUNT_BY_TOKEN: { [K in keyof AccountOf]: PreparedStatement<AccountByToken<AccountOf[K]>, ByToken> } = {
  admin: prepared("auth.admin", byTokenSql("admin", "= $1")),
  member: prepared("auth.member", byTokenSql("member", "= $1")),
};
/** The same for the tokens of the requests that arrived together (one statement for all of them). */
type ByTokens = [tokenHashes: string[], type: TokenType];
type WithHash<T> = T & { token_hash__: string };
const ACCOUNTS_BY_TOKENS: { [K in keyof AccountOf]: PreparedStatement<WithHash<AccountByToken<AccountOf[K]>>, ByTokens> } = {
  admin: prepared("auth.admin.many", byTokenSql("admin", "= any($1::text[])")),
  member: prepared("auth.member.many", byTokenSql("member", "= any($1::text[])")),
};

interface AccountOf {
  admin: AdminRow;
  member: MemberRow;
}

/** The token (unexchanged, expired or not) joined to its admin or member row, in one round trip. */
export async function accountByToken<K extends AccountKind>(
  q: Queryable,
  table: K,
  tokenHash: string,
  type: TokenType,
): Promise<AccountByToken<AccountOf[K]> | undefined> {
  const { rows } = await runPrepared(q, ACCOUNT_BY_TOKEN[table], [tokenHash, type]);
  return rows[0];
}

/**
 * `accountByToken` for a request: the lookups of the requests that arrive together (in one turn
 * of the event loop, or while the previous lookup is in flight) answered by one statement,
 * `token_hash = any($1)`; a lookup alone runs `accountByToken`'s statement. Nothing is cached: a
 * lookup made after a logout (or an exchange) committed is sent after it, and sees it.
 */
export function accountByTokenBatched<K extends AccountKind>(q: Queryable, table: K, tokenHash: string, type: TokenType): Promise<AccountByToken<AccountOf[K]> | undefined> {
  const run = async (hashes: string[]): Promise<(AccountByToken<AccountOf[K]> | undefined)[]> => {
    if (hashes.length === 1) return [await accountByToken(q, table, hashes[0]!, type)];
    const { rows } = await runPrepared(q, ACCOUNTS_BY_TOKENS[table], [[...new Set(hashes)], type]);
    // The hash is dropped from the row: the account goes on the request as the single lookup's does.
    const byHash = new Map(rows.map(({ token_hash__, ...row }) => [token_hash__, row as unknown as AccountByToken<AccountOf[K]>]));
    return hashes.map((h) => byHash.get(h));
  };
  return batcherOf(q, `auth ${table} ${type}`, run, TOKEN_BATCH)(tokenHash);
}

/** Token lookups are reads: two statements in flight at once keep a slow one from holding up the next requests. */
const TOKEN_BATCH = { maxInFlight: 2, maxBatch: 500 };

// ---------------------------------------------------------------------------------------------
// Tokens

/** A new token row, as the generated schema declares it, of one of the four token types. */
export type TokenInsert = Insertable<DB["token"]> & { type: TokenType };

export async function insertToken(q: Queryable, t: TokenInsert): Promise<void> {
  await kyselyOf(q).insertInto("token").values(t).execute();
}

const sideTypes = (side: Side): TokenType[] => [side, `${side}-refresh`];

/** Deletes every token of `side` in the sessions these token hashes belong to; answers how many went. */
export async function deleteSessionsOfTokens(q: Queryable, side: Side, tokenHashes: string[]): Promise<number> {
  const result = await kyselyOf(q)
    .deleteFrom("token")
    .where("type", "in", sideTypes(side))
    .where("session_id", "in", (eb) =>
      eb
        .selectFrom("token")
        .select("session_id")
        .where(sql<boolean>`token_hash = any(${tokenHashes}::text[])`)
        .where("type", "in", sideTypes(side)),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface RefreshRow {
  type: "admin-refresh" | "user-refresh";
  user_id: number;
  session_id: string;
  expire_time: number;
  rotated_at: number | null;
  successor: string | null;
}

/** A refresh token by its hash, among the given token types. */
export async function refreshTokenRow(q: Queryable, tokenHash: string, types: string[]): Promise<RefreshRow | undefined> {
  const row = await kyselyOf(q)
    .selectFrom("token")
    .select(["type", "user_id", "session_id", "expire_time", "rotated_at", "successor"])
    .where("token_hash", "=", tokenHash)
    .where(sql<boolean>`type = any(${types}::text[])`)
    .executeTakeFirst();
  return row as RefreshRow | undefined;
}

/** Marks a refresh token exchanged (with its sealed successor) unless it already was: true when this call did. */
export async function claimRefreshToken(q: Queryable, tokenHash: string, rotatedAt: number, successor: string): Promise<boolean> {
  const result = await kyselyOf(q)
    .updateTable("token")
    .set({ rotated_at: rotatedAt, successor })
    .where("token_hash", "=", tokenHash)
    .where("rotated_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** How many of these token hashes the session still holds unexchanged. */
export async function unexchangedTokenCount(q: Queryable, sessionId: string, tokenHashes: string[]): Promise<number> {
  const row = await kyselyOf(q)
    .selectFrom("token")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("session_id", "=", sessionId)
    .where("rotated_at", "is", null)
    .where(sql<boolean>`token_hash = any(${tokenHashes}::text[])`)
    .executeTakeFirst();
  return row?.n ?? 0;
}

/** Ends one session on one side: its access and refresh tokens. */
export async function deleteSession(q: Queryable, sessionId: string, side: Side): Promise<void> {
  await kyselyOf(q).deleteFrom("token").where("session_id", "=", sessionId).where("type", "in", sideTypes(side)).execute();
}

export async function deleteTokensExpiredBefore(q: Queryable, before: number): Promise<number> {
  const result = await kyselyOf(q).deleteFrom("token").where("expire_time", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------------
// Login counters (login.ts and attempts.ts hold the rules)

/**
 * A client address's standing since `since`: the failures counted against it over every
 * account, and how many accounts logged in successfully from it (a crowd behind one address).
 */
export async function addressStanding(q: Queryable, kind: AccountKind, address: string, since: number): Promise<{ failures: number; accounts: number }> {
  const { rows } = await sql<{ failures: number; accounts: number }>`
    select
      coalesce((select failures from login_address_failure
                where kind = ${kind} and address = ${address} and first_failure > ${since}), 0) as failures,
      (select count(*) from login_address
       where kind = ${kind} and address = ${address} and last_success > ${since})::int as accounts`.execute(kyselyOf(q));
  return rows[0] ?? { failures: 0, accounts: 0 };
}

/**
 * Counts one failure against a client address, atomically; a window that began at or before
 * `windowStart` starts again.
 */
export async function countAddressFailure(q: Queryable, kind: AccountKind, address: string, t: number, windowStart: number): Promise<void> {
  await sql`
    insert into login_address_failure as f (kind, address, failures, first_failure) values (${kind}, ${address}, 1, ${t})
    on conflict (kind, address) do update set
      failures = case when f.first_failure <= ${windowStart} then 1 else f.failures + 1 end,
      first_failure = case when f.first_failure <= ${windowStart} then ${t} else f.first_failure end`.execute(kyselyOf(q));
}

/**
 * Counts one failure of the account, atomically (a run whose last failure was at or before
 * `runStart` starts again, and so does its delay slot). Answers the new count and slot.
 */
export async function claimAccountAttempt(q: Queryable, kind: AccountKind, username: string, t: number, runStart: number) {
  const { rows } = await sql<{ failures: number; next_try: number }>`
    insert into login_guard as g (kind, username, failures, last_failure) values (${kind}, ${username}, 1, ${t})
    on conflict (kind, username) do update set
      failures = case when g.last_failure <= ${runStart} then 1 else g.failures + 1 end,
      next_try = case when g.last_failure <= ${runStart} then 0 else g.next_try end,
      last_failure = ${t}
    returning failures, next_try`.execute(kyselyOf(q));
  return rows[0]!;
}

/** Counts one failure of the account from a client address, atomically (same runs). Answers the new count and its last success. */
export async function claimAddressAttempt(q: Queryable, kind: AccountKind, username: string, address: string, t: number, runStart: number) {
  const { rows } = await sql<{ failures: number; last_success: number | null }>`
    insert into login_address as a (kind, username, address, failures, last_failure) values (${kind}, ${username}, ${address}, 1, ${t})
    on conflict (kind, username, address) do update set
      failures = case when a.last_failure <= ${runStart} then 1 else a.failures + 1 end,
      last_failure = ${t}
    returning failures, last_success`.execute(kyselyOf(q));
  return rows[0]!;
}

/** Takes back the account's and the (account, address) counts of one attempt. */
export async function releaseAttempt(q: Queryable, kind: AccountKind, username: string, address: string): Promise<void> {
  const k = kyselyOf(q);
  await k
    .updateTable("login_guard")
    .set({ failures: sql<number>`greatest(failures - 1, 0)` })
    .where("kind", "=", kind)
    .where("username", "=", username)
    .execute();
  await k
    .updateTable("login_address")
    .set({ failures: sql<number>`greatest(failures - 1, 0)` })
    .where("kind", "=", kind)
    .where("username", "=", username)
    .where("address", "=", address)
    .execute();
}

/** Forgets the account's failures, from every address (the addresses' last successes stay). */
export async function deleteAccountFailures(q: Queryable, kind: AccountKind, username: string): Promise<void> {
  const k = kyselyOf(q);
  await k.deleteFrom("login_guard").where("kind", "=", kind).where("username", "=", username).execute();
  await k.updateTable("login_address").set({ failures: 0 }).where("kind", "=", kind).where("username", "=", username).where("failures", ">", 0).execute();
}

export interface StaleLoginRows {
  /** Account runs whose last failure is older. */
  guardBefore: number;
  /** Address windows that began earlier. */
  addressWindowBefore: number;
  /** (account, address) runs whose last failure is older... */
  addressRunBefore: number;
  /** ...and whose last success (if any) is older too. */
  successBefore: number;
}

/** Drops the counter rows that no longer change any decision. */
export async function deleteStaleLoginRows(q: Queryable, s: StaleLoginRows): Promise<void> {
  const k = kyselyOf(q);
  await k.deleteFrom("login_guard").where("last_failure", "<", s.guardBefore).execute();
  await k.deleteFrom("login_address_failure").where("first_failure", "<", s.addressWindowBefore).execute();
  await k
    .deleteFrom("login_address")
    .where("last_failure", "<", s.addressRunBefore)
    .where((eb) => eb.or([eb("last_success", "is", null), eb("last_success", "<", s.successBefore)]))
    .execute();
}

/** Claims the account's next password-check slot (sets it to `nextTry`) if it is open at `t`: true when claimed. */
export async function claimLoginSlot(q: Queryable, kind: AccountKind, username: string, nextTry: number, t: number): Promise<boolean> {
  const rows = await kyselyOf(q)
    .updateTable("login_guard")
    .set({ next_try: nextTry })
    .where("kind", "=", kind)
    .where("username", "=", username)
    .where("next_try", "<=", t)
    .returning("next_try")
    .execute();
  return rows.length > 0;
}

/** When the account's next password check may run, if it has a row. */
export async function loginNextTry(q: Queryable, kind: AccountKind, username: string): Promise<number | undefined> {
  const row = await kyselyOf(q).selectFrom("login_guard").select("next_try").where("kind", "=", kind).where("username", "=", username).executeTakeFirst();
  return row?.next_try;
}

export async function recordAddressSuccess(q: Queryable, kind: AccountKind, username: string, address: string, t: number): Promise<void> {
  await kyselyOf(q)
    .updateTable("login_address")
    .set({ last_success: t })
    .where("kind", "=", kind)
    .where("username", "=", username)
    .where("address", "=", address)
    .execute();
}

/** The whole admin or member row of a username (password hash included: login checks it). */
export async function accountByUsername<T>(q: Queryable, kind: AccountKind, username: string): Promise<T | undefined> {
  const { rows } = await sql<T>`select * from ${sql.table(kind)} where username = ${username}`.execute(kyselyOf(q));
  return rows[0];
}

export async function recordLogin(q: Queryable, kind: AccountKind, id: number, t: number, ip: string): Promise<void> {
  await sql`update ${sql.table(kind)} set last_login_time = ${t}, last_login_ip = ${ip} where id = ${id}`.execute(kyselyOf(q));
}

// ---------------------------------------------------------------------------------------------
// Click captchas

export interface CaptchaRow {
  answer: unknown;
  width: number;
  height: number;
  verified: boolean;
  expire_time: number;
}

export interface CaptchaInsert {
  id: string;
  /** The target boxes, as JSON. */
  answer: string;
  width: number;
  height: number;
  createTime: number;
  expireTime: number;
}

export async function deleteCaptchasExpiredBefore(q: Queryable, t: number): Promise<void> {
  await kyselyOf(q).deleteFrom("captcha").where("expire_time", "<", t).execute();
}

/** Stores a new captcha under its id, replacing (and unverifying) one stored there before. */
export async function saveCaptcha(q: Queryable, c: CaptchaInsert): Promise<void> {
  await kyselyOf(q)
    .insertInto("captcha")
    .values({
      id: c.id,
      answer: sql`${c.answer}::jsonb`,
      width: c.width,
      height: c.height,
      verified: false,
      create_time: c.createTime,
      expire_time: c.expireTime,
    })
    .onConflict((oc) =>
      oc.column("id").doUpdateSet({ ...excludedValues("answer", "width", "height", "create_time", "expire_time"), verified: false }),
    )
    .execute();
}

const CAPTCHA_COLUMNS = ["answer", "width", "height", "verified", "expire_time"] as const;

/** Marks an unverified captcha verified and answers it; undefined when unknown or already verified. */
export async function claimCaptcha(q: Queryable, id: string): Promise<CaptchaRow | undefined> {
  return kyselyOf(q).updateTable("captcha").set({ verified: true }).where("id", "=", id).where(sql<boolean>`not verified`).returning(CAPTCHA_COLUMNS).executeTakeFirst();
}

export async function captchaExpiry(q: Queryable, id: string): Promise<number | undefined> {
  const row = await kyselyOf(q).selectFrom("captcha").select("expire_time").where("id", "=", id).executeTakeFirst();
  return row?.expire_time;
}

export async function deleteCaptcha(q: Queryable, id: string): Promise<void> {
  await kyselyOf(q).deleteFrom("captcha").where("id", "=", id).execute();
}

/** Deletes a captcha and answers it (single use). */
export async function takeCaptcha(q: Queryable, id: string): Promise<CaptchaRow | undefined> {
  return kyselyOf(q).deleteFrom("captcha").where("id", "=", id).returning(CAPTCHA_COLUMNS).executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------
// Verification codes

/** How many codes went to an address (any case) since `since`, and when the last one went. */
export async function recentCodes(q: Queryable, channel: string, target: string, since: number): Promise<{ n: number; last: number | null }> {
  const row = await kyselyOf(q)
    .selectFrom("verification_code")
    .select([sql<number>`count(*)::int`.as("n"), sql<number | null>`max(create_time)`.as("last")])
    .where("channel", "=", channel)
    .where(sql<boolean>`lower(target) = lower(${target})`)
    .where("create_time", ">", since)
    .executeTakeFirst();
  return row ?? { n: 0, last: null };
}

export async function insertCode(q: Queryable, c: Insertable<DB["verification_code"]>): Promise<void> {
  await kyselyOf(q).insertInto("verification_code").values(c).execute();
}

/** The newest unused code for an address (any case) and event. */
export async function latestOpenCode(
  q: Queryable,
  channel: string,
  target: string,
  event: string,
): Promise<{ id: number; code_hash: string; attempts: number; expire_time: number } | undefined> {
  return kyselyOf(q)
    .selectFrom("verification_code")
    .select(["id", "code_hash", "attempts", "expire_time"])
    .where("channel", "=", channel)
    .where(sql<boolean>`lower(target) = lower(${target})`)
    .where("event", "=", event)
    .where(sql<boolean>`not used`)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
}

export async function countWrongCode(q: Queryable, id: number): Promise<void> {
  await kyselyOf(q)
    .updateTable("verification_code")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .execute();
}

export async function spendCode(q: Queryable, id: number): Promise<void> {
  await kyselyOf(q).updateTable("verification_code").set({ used: true }).where("id", "=", id).execute();
}

// ---------------------------------------------------------------------------------------------
// Outbox

export interface OutboxRow {
  channel: string;
  target: string;
  subject: string;
  body: string;
  /** "failed" (with `error`): a provider did not take it; default "kept" (no provider). */
  status?: "kept" | "failed";
  error?: string;
}

/** Writes the messages, 1,000 rows a statement (an import's thousands of invitations in a few). */
export async function insertOutboxMessages(q: Queryable, rows: readonly OutboxRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    await kyselyOf(q)
      .insertInto("outbox_message")
      .values(part.map((m) => ({ channel: m.channel, target: m.target, subject: m.subject, body: m.body, status: m.status ?? "kept", error: m.error ?? "" })))
      .execute();
  }
}
