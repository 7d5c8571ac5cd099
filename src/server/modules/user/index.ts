import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { endSessions } from "../../auth/tokens.ts";
import { memberToken, needLogin, type MemberRow } from "../../plugins/auth.ts";
import { ruleTree, type RuleRow } from "../admin/rules.ts";
import { siteConfig } from "../site/config.ts";
import { enabledGroupRules, enabledMemberRules } from "./repository.ts";

/** Member info as the client stores it (API.md); money in cents -> "0.00". */
export function memberInfo(member: MemberRow, token: string, refreshToken: string) {
  return {
    id: member.id,
    username: member.username,
    nickname: member.nickname,
    email: member.email ?? "",
    mobile: member.mobile ?? "",
    avatar: member.avatar,
    gender: member.gender,
    birthday: member.birthday ?? "",
    money: (Number(member.money) / 100).toFixed(2),
    score: Number(member.score),
    last_login_time: member.last_login_time,
    last_login_ip: member.last_login_ip ?? "",
    join_time: member.join_time,
    motto: member.motto,
    token,
    refresh_token: refreshToken,
  };
}

/** `{refreshToken}` of a logout (either side). */
export const logoutToken = z.object({ refreshToken: z.string().max(200).optional() });

/** Member-center menus: the rules of the member's group ('*' = all). */
async function memberRules(app: FastifyInstance, member: MemberRow): Promise<RuleRow[]> {
  const rows = await enabledMemberRules(app.db);
  if (!member.group_id) return rows;
  const rules = (await enabledGroupRules(app.db, member.group_id)) ?? "";
  if (rules.trim() === "*") return rows;
  const ids = new Set(rules.split(",").map((s) => Number(s.trim())));
  return rows.filter((r) => ids.has(r.id));
}

export async function userIndexRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** The member side's start data; `requiredLogin=1` answers 303 need login when not logged in. */
  // Any other requiredLogin value (or none) counts as 0, as it always did.
  const indexQuery = z.object({ requiredLogin: z.unknown().optional() });
  api.get("/api/index/index", { config: { auth: "optional" }, schema: { querystring: indexQuery } }, async (req, reply) => {
    const member = req.member;
    const v = req.query.requiredLogin;
    const required = (typeof v === "string" || typeof v === "number") && Number(v) === 1;
    if (required && !member) throw needLogin();
    const menus = member ? ruleTree(await memberRules(app, member), req.lang) : [];
    // The site config follows the back office's config at once and the member's data is theirs:
    // no HTTP cache may keep this answer (the service worker does not either).
    reply.header("cache-control", "no-store");
    return reply.success({
      siteConfig: await siteConfig(config, db),
      userInfo: member ? memberInfo(member, memberToken(req) ?? "", "") : null,
      menus,
    });
  });

  /** Ends the session of the access token (header) or the refresh token (body), whichever is sent, expired or not. */
  // A malformed body still ends the session of the header's token.
  const logoutBody = z.unknown().transform((body) => logoutToken.safeParse(body).data ?? {});
  api.post("/api/user/logout", { config: { auth: "public" }, schema: { body: logoutBody } }, async (req, reply) => {
    await endSessions(db, "user", [memberToken(req), req.body.refreshToken]);
    return reply.success(null, msg`Logged out`);
  });
}
