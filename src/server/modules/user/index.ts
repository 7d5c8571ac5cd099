import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { endSessions } from "../../auth/tokens.ts";
import { memberToken, optionalMember, requireMember, type MemberRow } from "../../plugins/auth.ts";
import { ruleTree, type RuleRow } from "../admin/rules.ts";
import { siteConfig } from "../site/config.ts";

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

/** Member-center menus: the rules of the member's group ('*' = all). */
async function memberRules(app: FastifyInstance, member: MemberRow): Promise<RuleRow[]> {
  const { rows } = await app.db.query<RuleRow>(
    `select id, pid, type, title, title_en, name, path, icon, menu_type, url, component, keepalive, extend, weigh
     from user_rule where status = 'enable' order by weigh desc, id`,
  );
  if (!member.group_id) return rows;
  const group = await app.db.query<{ rules: string }>("select rules from user_group where id = $1 and status = 'enable'", [member.group_id]);
  const rules = group.rows[0]?.rules ?? "";
  if (rules.trim() === "*") return rows;
  const ids = new Set(rules.split(",").map((s) => Number(s.trim())));
  return rows.filter((r) => ids.has(r.id));
}

export async function userIndexRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;

  /** The member side's start data; `requiredLogin=1` answers 303 need login when not logged in. */
  app.get("/api/index/index", async (req, reply) => {
    const query = z.object({ requiredLogin: z.coerce.number().optional() }).safeParse(req.query);
    const required = query.success && query.data.requiredLogin === 1;
    const member = required ? await requireMember(db, req) : await optionalMember(db, req);
    const menus = member ? ruleTree(await memberRules(app, member), req.lang) : [];
    return reply.success({
      siteConfig: siteConfig(config),
      userInfo: member ? memberInfo(member, memberToken(req) ?? "", "") : null,
      menus,
    });
  });

  /** Ends the session of the access token (header) or the refresh token (body), whichever is sent, expired or not. */
  app.post("/api/user/logout", async (req, reply) => {
    const body = z.object({ refreshToken: z.string().max(200).optional() }).safeParse(req.body ?? {});
    await endSessions(db, "user", [memberToken(req), body.success ? body.data.refreshToken : undefined]);
    return reply.success(null, msg`Logged out`);
  });
}
