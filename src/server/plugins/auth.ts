import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import { msg } from "@lingui/core/macro";
import type { AdminProfileRow } from "../../shared/admin/profile.ts";
import { ApiCode, HEADER_ADMIN_TOKEN, HEADER_USER_TOKEN } from "../../shared/constants.ts";
import { MAX_TOKEN_LENGTH, hashToken, type TokenType } from "../auth/tokens.ts";
import { accountByTokenBatched } from "../auth/repository.ts";
import { now } from "../clock.ts";
import type { Queryable } from "../db/index.ts";
import { ApiError } from "../errors.ts";

export interface AdminRow extends AdminProfileRow {
  is_super: boolean;
  is_company: boolean;
  /** The company of a company-scoped admin (is_company). */
  company_id: number | null;
  status: string;
}

export interface MemberRow {
  id: number;
  group_id: number | null;
  company_id: number | null;
  duty_id: number | null;
  username: string;
  nickname: string;
  email: string | null;
  mobile: string | null;
  avatar: string;
  gender: number;
  birthday: string | null;
  money: number;
  score: number;
  motto: string;
  last_login_time: number | null;
  last_login_ip: string | null;
  join_time: number;
  status: string;
}

export const needLogin = () => new ApiError(msg`Please log in first`, ApiCode.LOGIN, { type: "need login" });
const expired = () => new ApiError(msg`Token expired`, ApiCode.TOKEN_EXPIRED, null);

function headerToken(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value ? value : undefined;
}

/**
 * The account behind an access token in one round trip: the token joined to its admin or member
 * row (an authenticated request used to cost two queries, the token then the account). The token's
 * rules, then the account's, in that order: unknown (or exchanged) token → 303
 * need login; expired → 409 (whatever the account's state, so the client refreshes and then
 * learns); account gone or not `enable` → 303 need login.
 */
async function resolve<K extends "admin" | "member">(db: Queryable, token: string | undefined, type: TokenType, table: K) {
  if (!token || token.length > MAX_TOKEN_LENGTH) throw needLogin();
  const row = await accountByTokenBatched(db, table, hashToken(token), type);
  if (!row) throw needLogin();
  if (Number(row.token_expire_time__) <= Math.floor(now() / 1000)) throw expired();
  if (row.status !== "enable") throw needLogin();
  const { token_expire_time__: _, ...account } = row;
  return account;
}

/** The admin behind the `batoken` header: 303 need login when absent or unknown, 409 when expired. */
export function requireAdmin(db: Queryable, req: FastifyRequest): Promise<AdminRow> {
  return resolve(db, headerToken(req, HEADER_ADMIN_TOKEN), "admin", "admin");
}

/**
 * The member behind the `ba-user-token` header (same rules); on a route declared
 * `auth: 'member'` the member the route's check already found.
 */
export function requireMember(db: Queryable, req: FastifyRequest): Promise<MemberRow> {
  if (req.member) return Promise.resolve(req.member);
  return resolve(db, headerToken(req, HEADER_USER_TOKEN), "user", "member");
}

/** The member when a valid token is sent, else null (for pages that work both ways). */
export async function optionalMember(db: Queryable, req: FastifyRequest): Promise<MemberRow | null> {
  try {
    return await requireMember(db, req);
  } catch (error) {
    if (error instanceof ApiError && error.code === ApiCode.LOGIN) return null;
    throw error;
  }
}

export function adminToken(req: FastifyRequest): string | undefined {
  return headerToken(req, HEADER_ADMIN_TOKEN);
}
export function memberToken(req: FastifyRequest): string | undefined {
  return headerToken(req, HEADER_USER_TOKEN);
}

export type Reply = FastifyReply;

/**
 * Who may call a member-side route, declared on the route: `config: { auth: 'member' }` (a
 * logged-in member: 303 need login / 409 expired otherwise), `'optional'` (the member when a
 * valid token is sent, else nobody; an expired token still answers 409 so the client refreshes
 * it) or `'public'` (the token is not looked at: login, logout, refresh, captcha, health).
 */
export type AuthSpec = "member" | "optional" | "public";

const AUTH_SPECS: ReadonlySet<unknown> = new Set<AuthSpec>(["member", "optional", "public"]);

declare module "fastify" {
  interface FastifyContextConfig {
    auth?: AuthSpec;
  }
  interface FastifyRequest {
    /** The member the route's `auth` check found (null for nobody, and on other routes). */
    member: MemberRow | null;
  }
}

export const isApiUrl = (url: string): boolean => url.startsWith("/api/");

/**
 * The one authentication mechanism of the member side. Every route under `/api/` declares
 * `config.auth`, or the server refuses to start (the route is named in the error); the check
 * runs on the route's `onRequest`, before the body is read, and leaves the member on
 * `req.member`. The declaration is read when the first request arrives, so a module may declare
 * it for routes it registers from elsewhere (`declareAuth`). Register before any route.
 */
export const memberAccessPlugin = fp(
  async (app: FastifyInstance) => {
    const routes: { method: string; url: string; config: () => { auth?: unknown } }[] = [];
    app.decorateRequest("member", null);

    app.addHook("onRoute", (route: RouteOptions) => {
      if (!isApiUrl(route.url)) return;
      const config = () => (route.config ?? {}) as { auth?: unknown };
      for (const method of ([] as string[]).concat(route.method)) routes.push({ method, url: route.url, config });
      const check: onRequestHookHandler = async (req: FastifyRequest) => {
        const auth = config().auth;
        if (auth === "member") req.member = await requireMember(app.db, req);
        else if (auth === "optional") req.member = await optionalMember(app.db, req);
      };
      route.onRequest = [check, ...(route.onRequest ? ([] as onRequestHookHandler[]).concat(route.onRequest) : [])];
    });

    app.addHook("onReady", async () => {
      const missing = routes.filter((r) => !AUTH_SPECS.has(r.config().auth));
      if (missing.length > 0) {
        const names = missing.map((r) => `${r.method} ${r.url}`).join(", ");
        throw new Error(`${names}: every /api/ route needs config.auth ('member', 'optional' or 'public')`);
      }
    });
  },
  { name: "member-access" },
);

/**
 * Declares `auth` for the routes `plugin` registers without a declaration of their own (a
 * module whose routes all need the same, registered from a file that does not declare it).
 */
export function declareAuth(auth: AuthSpec, plugin: (app: FastifyInstance) => Promise<void>) {
  return async (app: FastifyInstance): Promise<void> => {
    app.addHook("onRoute", (route: RouteOptions) => {
      if (!isApiUrl(route.url)) return;
      route.config = { ...route.config, auth: (route.config as { auth?: AuthSpec } | undefined)?.auth ?? auth };
    });
    await app.register(plugin);
  };
}
