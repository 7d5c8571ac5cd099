import type { FastifyReply, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import { ApiCode, HEADER_ADMIN_TOKEN, HEADER_USER_TOKEN } from "../../shared/constants.ts";
import { checkToken, type TokenType } from "../auth/tokens.ts";
import type { Queryable } from "../db/index.ts";
import { ApiError } from "../errors.ts";

export interface AdminRow {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  email: string | null;
  mobile: string | null;
  motto: string;
  is_super: boolean;
  is_company: boolean;
  last_login_time: number | null;
  status: string;
}

export interface MemberRow {
  id: number;
  group_id: number | null;
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

const needLogin = () => new ApiError(msg`Please log in first`, ApiCode.LOGIN, { type: "need login" });
const expired = () => new ApiError(msg`Token expired`, ApiCode.TOKEN_EXPIRED, null);

function headerToken(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value ? value : undefined;
}

async function resolve<T>(db: Queryable, token: string | undefined, type: TokenType, table: "admin" | "member"): Promise<T> {
  const check = await checkToken(db, token, type);
  if (check.status === "invalid") throw needLogin();
  if (check.status === "expired") throw expired();
  const { rows } = await db.query<T & { status: string }>(`select * from ${table} where id = $1`, [check.userId]);
  const row = rows[0];
  if (!row || row.status !== "enable") throw needLogin();
  return row;
}

/** The admin behind the `batoken` header: 303 need login when absent or unknown, 409 when expired. */
export function requireAdmin(db: Queryable, req: FastifyRequest): Promise<AdminRow> {
  return resolve<AdminRow>(db, headerToken(req, HEADER_ADMIN_TOKEN), "admin", "admin");
}

/** The member behind the `ba-user-token` header (same rules). */
export function requireMember(db: Queryable, req: FastifyRequest): Promise<MemberRow> {
  return resolve<MemberRow>(db, headerToken(req, HEADER_USER_TOKEN), "user", "member");
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
