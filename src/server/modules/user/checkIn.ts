import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiCode } from "../../../shared/constants.ts";
import { validateAccount, validatePassword } from "../../../shared/validation.ts";
import { FailedAttempts } from "../../auth/attempts.ts";
import { consumeClickCaptcha } from "../../auth/captcha.ts";
import { useCode } from "../../auth/codes.ts";
import { logIn, loginFloodGuard } from "../../auth/login.ts";
import { hashPassword } from "../../auth/password.ts";
import { issueSession } from "../../auth/tokens.ts";
import { sqlState } from "../../db/database.ts";
import { ApiError } from "../../errors.ts";
import type { MemberRow } from "../../plugins/auth.ts";
import { jsonBody } from "../../../shared/schema.ts";
import { getSetting } from "../../settings.ts";
import { memberInfo } from "./index.ts";
import { insertMember, memberById, registrationClashes } from "./repository.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^1[3-9]\d{9}$/;
const keepFlag = z.union([z.boolean(), z.literal(1), z.literal(0), z.literal("1"), z.literal("0")]).optional();

const body = jsonBody(z.object({
  tab: z.enum(["login", "register"]),
  username: z.string().max(64).default(""),
  password: z.string().max(64).default(""),
  keep: keepFlag,
  captchaId: z.string().max(64).optional(),
  captchaInfo: z.string().max(500).optional(),
  registerType: z.enum(["email", "mobile"]).optional(),
  email: z.string().max(254).optional(),
  mobile: z.string().max(20).optional(),
  captcha: z.string().max(10).optional(),
}));

/** `GET/POST /api/user/checkIn`: member login and registration (API.md "Member calls"). */
export async function checkInRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  const floodGuard = loginFloodGuard(app);
  const failures = new FailedAttempts(db, "member");
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/user/checkIn", { config: { auth: "optional" } }, async (req, reply) => {
    if (req.member) throw new ApiError(msg`You are already logged in`, ApiCode.LOGIN, { type: "logged in" });
    return reply.success({
      userLoginCaptchaSwitch: await getSetting(db, "user_login_captcha"),
      accountVerificationType: await getSetting(db, "account_verification_type"),
    });
  });

  api.post(
    "/api/user/checkIn",
    { config: { auth: "public" }, preHandler: floodGuard, schema: { body } },
    async (req, reply) => {
      const input = req.body;
      const keep = [true, 1, "1"].includes(input.keep as never);
      const invalid = validateAccount(input.username) ?? validatePassword(input.password);
      if (invalid) throw new ApiError(invalid);

      let member: MemberRow;
      if (input.tab === "login") {
        member = await logIn<MemberRow & { password_hash: string }>(
          db,
          "member",
          { username: input.username, password: input.password, ip: req.ip, captchaId: input.captchaId, captchaInfo: input.captchaInfo },
          { lockSeconds: config.loginLockSeconds, captchaSwitch: await getSetting(db, "user_login_captcha"), addressFailures: failures },
        );
      } else {
        member = await register(input, req.ip);
      }

      const session = await issueSession(db, "user", member.id, config.tokenTtl, keep);
      const fresh = (await memberById(db, member.id))!;
      return reply.success(
        { userInfo: memberInfo(fresh, session.token, session.refreshToken), routePath: "/user" },
        input.tab === "login" ? msg`Login successful` : msg`Registration successful`,
      );
    },
  );

  async function register(input: z.output<typeof body>, ip: string): Promise<MemberRow> {
    if (!input.captchaId || !input.captchaInfo || !(await consumeClickCaptcha(db, input.captchaId, input.captchaInfo))) {
      throw new ApiError(msg`The captcha is wrong or has expired, please try again`, 0, { captcha: true });
    }
    const types = await getSetting(db, "account_verification_type");
    const type = input.registerType ?? "email";
    const target = type === "email" ? (input.email ?? "").trim() : (input.mobile ?? "").trim();
    if (types.length > 0) {
      if (!types.includes(type)) throw new ApiError(msg`Incorrect parameter!`);
      if (type === "email" && !EMAIL.test(target)) throw new ApiError(msg`Please enter a correct email address`);
      if (type === "mobile" && !MOBILE.test(target)) throw new ApiError(msg`Please enter the correct mobile number`);
    }
    const taken = await registrationClashes(db, input.username, type === "email" ? target : "", type === "mobile" ? target : "");
    for (const row of taken) {
      if (row.username === input.username) throw new ApiError(msg`This username is already taken`);
      if (type === "email" && row.email?.toLowerCase() === target.toLowerCase()) throw new ApiError(msg`This email address is already registered`);
      if (type === "mobile" && row.mobile === target) throw new ApiError(msg`This mobile number is already registered`);
    }
    const passwordHash = await hashPassword(input.password);
    // The code is checked (and a wrong try counted) on its own, before the account is created.
    if (types.length > 0) await useCode(db, type, target, "user_register", input.captcha);
    try {
      return await insertMember(db, {
        username: input.username,
        email: type === "email" && target ? target : null,
        mobile: type === "mobile" && target ? target : null,
        passwordHash,
        ip,
      });
    } catch (error) {
      if (sqlState(error) === "23505") throw new ApiError(msg`This username is already taken`);
      throw error;
    }
  }
}
