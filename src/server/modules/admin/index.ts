import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { jsonBody } from "../../../shared/schema.ts";
import { validateAccount, validatePassword } from "../../../shared/validation.ts";
import { FailedAttempts } from "../../auth/attempts.ts";
import { addressKey, logIn, loginFloodGuard } from "../../auth/login.ts";
import { getSetting } from "../../settings.ts";
import { accountByUsername } from "../../auth/repository.ts";
import { LOGIN_LOG, writeAdminLog } from "../../crud/log.ts";
import { endSessions, issueSession } from "../../auth/tokens.ts";
import { ApiError } from "../../errors.ts";
import { adminToken, type AdminRow } from "../../plugins/auth.ts";
import { logoutToken } from "../user/index.ts";
import { siteConfig } from "../site/config.ts";
import { terminalIndex } from "../terminal/routes.ts";
import { ANY_ADMIN_RULE } from "./access.ts";
import { menuRulesFor } from "./companyMenus.ts";
import { adminRuleIds, adminRules, ruleTree } from "./rules.ts";

const loginBody = jsonBody(z.object({
  username: z.string().max(64),
  password: z.string().max(64),
  keep: z.union([z.boolean(), z.literal(1), z.literal(0), z.literal("1"), z.literal("0")]).optional(),
  captchaId: z.string().max(64).optional(),
  captchaInfo: z.string().max(500).optional(),
}));

export function adminInfo(admin: AdminRow, token: string, refreshToken: string) {
  return {
    id: admin.id,
    username: admin.username,
    nickname: admin.nickname,
    avatar: admin.avatar,
    last_login_time: admin.last_login_time,
    token,
    refresh_token: refreshToken,
    super: admin.is_super,
    is_company: admin.is_company,
  };
}

/** Admin session: login, the back office's start data, logout (API.md "Admin calls"). */
export async function adminIndexRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const floodGuard = loginFloodGuard(app);
  const failures = new FailedAttempts(db, "admin");
  const captchaNeeded = async (ip: string) =>
    (await getSetting(db, "admin_login_captcha")) || (await failures.needsCaptcha(addressKey(ip)));

  app.get("/admin/index/login", { config: { adminRule: { public: true } } }, async (req, reply) => reply.success({ captcha: await captchaNeeded(req.ip) }));

  api.post(
    "/admin/index/login",
    { config: { adminRule: { public: true } }, preHandler: floodGuard, schema: { body: loginBody } },
    async (req, reply) => {
      const { username, password, captchaId, captchaInfo } = req.body;
      const invalid = validateAccount(username) ?? validatePassword(password);
      if (invalid) throw new ApiError(invalid);
      const keep = [true, 1, "1"].includes(req.body.keep as never);
      let admin: AdminRow & { password_hash: string };
      try {
        admin = await logIn<AdminRow & { password_hash: string }>(
          db,
          "admin",
          { username, password, ip: req.ip, captchaId, captchaInfo },
          { lockSeconds: config.loginLockSeconds, captchaSwitch: await getSetting(db, "admin_login_captcha"), addressFailures: failures },
        );
      } catch (error) {
        // A refused login is logged (a wrong password, a lock, a wait), not the request for a captcha.
        if (error instanceof ApiError && !(error.data as { captcha?: boolean } | null)?.captcha) {
          const account = await accountByUsername<{ id: number }>(db, "admin", username);
          await writeAdminLog(db, req, LOGIN_LOG, "loginFailed", { id: account?.id ?? 0, username });
        }
        throw error;
      }
      await writeAdminLog(db, req, LOGIN_LOG, "login", admin);
      const session = await issueSession(db, "admin", admin.id, config.tokenTtl, keep);
      const fresh = { ...admin, last_login_time: Math.floor(Date.now() / 1000) };
      return reply.success({ userInfo: adminInfo(fresh, session.token, session.refreshToken), routePath: "/admin" }, msg`Login successful`);
    },
  );

  app.get("/admin/index/index", { config: { adminRule: ANY_ADMIN_RULE } }, async (req, reply) => {
    const admin = req.admin!;
    const rules = menuRulesFor(app, admin, await adminRules(db, admin), (await adminRuleIds(db, admin)) === "all");
    return reply.success({
      adminInfo: adminInfo(admin, adminToken(req) ?? "", ""),
      menus: ruleTree(rules, req.lang),
      siteConfig: await siteConfig(config, db),
      terminal: await terminalIndex(db),
    });
  });

  /** Ends the session of the access token (header) or the refresh token (body), whichever is sent, expired or not. */
  const logoutBody = z.unknown().transform((body) => logoutToken.safeParse(body).data ?? {});
  api.post("/admin/index/logout", { config: { adminRule: { public: true } }, schema: { body: logoutBody } }, async (req, reply) => {
    await endSessions(db, "admin", [adminToken(req), req.body.refreshToken]);
    return reply.success(null, msg`Logged out`);
  });
}
