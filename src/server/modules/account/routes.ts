import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { jsonBody, withMessage } from "../../../shared/schema.ts";
import { dayIn, daysEndingAt } from "../../../shared/time.ts";
import { validatePassword } from "../../../shared/validation.ts";
import { useCode } from "../../auth/codes.ts";
import { clearLoginFailures } from "../../auth/login.ts";
import { hashPassword, verifyPassword } from "../../auth/password.ts";
import { hashToken } from "../../auth/tokens.ts";
import { ApiError } from "../../errors.ts";
import { memberToken } from "../../plugins/auth.ts";
import { getSetting } from "../../settings.ts";
import { memberInfo } from "../user/index.ts";
import { renderMemo } from "./memos.ts";
import {
  bindingTaken,
  deleteMemberSessions,
  ledgerMovesSince,
  ledgerPage,
  memberByBinding,
  passwordHashOf,
  saveAccountVerified,
  setBinding,
  setPasswordHash,
  updateProfile,
  useAccountVerified,
  type Ledger,
} from "./repository.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^1[3-9]\d{9}$/;
const DAY = 86_400;

const page = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

const profileBody = jsonBody(
  z.object({
    avatar: z.string().max(500).default(""),
    nickname: withMessage(z.string().trim().min(1).max(50), msg`Please enter a nickname of at most 50 characters`),
    gender: z.coerce.number().int().min(0).max(2).default(0),
    birthday: withMessage(z.union([z.literal(""), z.iso.date()]).default(""), msg`Please enter a correct birthday`),
    motto: withMessage(z.string().max(250).default(""), msg`The motto can have at most 250 characters`),
  }),
);
const bindingType = z.enum(["email", "mobile"]);

/** YYYY-MM-DD of a Unix time in the server's time zone. */
/** `tz`: the member's time zone (IANA), so a day of the overview is theirs; without it, the server's. */
const overviewQuery = z.object({ tz: z.string().max(64).optional() });

/** The member's own account (API.md "Member calls"): overview, profile, logs, password, bindings. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const memberOnly = { auth: "member" } as const;

  api.get("/api/account/overview", { config: memberOnly, schema: { querystring: overviewQuery } }, async (req, reply) => {
    const member = req.member!;
    const zone = req.query.tz || undefined;
    let dayOf: (seconds: number) => string;
    try {
      dayOf = dayIn(zone);
    } catch {
      throw new ApiError(msg`Incorrect parameter!`);
    }
    const now = Math.floor(Date.now() / 1000);
    const days = daysEndingAt(now, zone, 7);
    const sum = async (ledger: Ledger) => {
      // A day more than the week, whatever the zone's offset; rows are then kept by their day there.
      const rows = await ledgerMovesSince(db, ledger, member.id, now - 8 * DAY);
      const totals = new Map<string, number>();
      for (const r of rows) {
        const day = dayOf(Number(r.create_time));
        totals.set(day, (totals.get(day) ?? 0) + Number(r.v));
      }
      return days.map((d) => totals.get(d) ?? 0);
    };
    const score = await sum({ table: "user_score_log", column: "score" });
    const money = (await sum({ table: "user_money_log", column: "money" })).map((cents) => (cents / 100).toFixed(2));
    return reply.success({ days, score, money });
  });

  api.get("/api/account/profile", { config: memberOnly }, async (req, reply) => {
    const member = req.member!;
    return reply.success({
      userInfo: memberInfo(member, memberToken(req) ?? "", ""),
      accountVerificationType: await getSetting(db, "account_verification_type"),
    });
  });

  api.post("/api/account/profile", { config: memberOnly, schema: { body: profileBody } }, async (req, reply) => {
    const member = req.member!;
    const p = req.body;
    if (p.avatar && !p.avatar.startsWith("/storage/") && !/^https?:\/\//.test(p.avatar)) throw new ApiError(msg`Incorrect parameter!`);
    const row = await updateProfile(db, member.id, { avatar: p.avatar, nickname: p.nickname, gender: p.gender, birthday: p.birthday || null, motto: p.motto });
    return reply.success({ userInfo: memberInfo(row, memberToken(req) ?? "", "") }, msg`Profile saved`);
  });

  for (const [url, ledger] of [
    ["/api/account/balance", { table: "user_money_log", column: "money" }],
    ["/api/account/integral", { table: "user_score_log", column: "score" }],
  ] as const) {
    api.get(url, { config: memberOnly, schema: { querystring: page } }, async (req, reply) => {
      const member = req.member!;
      const { page: p, limit } = req.query;
      const { rows, total } = await ledgerPage(db, ledger, member.id, limit, (p - 1) * limit);
      // Memos are shown in the reader's language (memos.ts); the row keeps its key, not text.
      const shown = rows.map(({ memo_key, memo_params, ...r }) => ({ ...r, memo: renderMemo(req.t, memo_key, memo_params, r.memo) }));
      const list =
        ledger.column === "money"
          ? shown.map((r) => ({
              ...r,
              money: (Number(r.money) / 100).toFixed(2),
              before: (Number(r.before) / 100).toFixed(2),
              after: (Number(r.after) / 100).toFixed(2),
            }))
          : shown;
      return reply.success({ list, total });
    });
  }

  const passwordBody = jsonBody(z.object({ oldPassword: z.string().max(64), newPassword: z.string().max(64) }));
  api.post("/api/account/changePassword", { config: memberOnly, schema: { body: passwordBody } }, async (req, reply) => {
    const member = req.member!;
    const invalid = validatePassword(req.body.newPassword);
    if (invalid) throw new ApiError(invalid);
    if (!(await verifyPassword(req.body.oldPassword, (await passwordHashOf(db, member.id))!))) throw new ApiError(msg`The old password is wrong`);
    const hash = await hashPassword(req.body.newPassword);
    await db.transaction(async (tx) => {
      await setPasswordHash(tx, member.id, hash, true);
      // Every session of the member ends: log in again with the new password.
      await deleteMemberSessions(tx, member.id);
    });
    return reply.success(null, msg`Password changed, please log in again`);
  });

  /** Step 1 of changing a binding: prove the current email/mobile with a code; get a short-lived token. */
  const verificationBody = jsonBody(z.object({ type: bindingType, captcha: z.string().max(10) }));
  api.post("/api/account/verification", { config: memberOnly, schema: { body: verificationBody } }, async (req, reply) => {
    const member = req.member!;
    const { type, captcha } = req.body;
    const current = member[type];
    if (!current) throw new ApiError(msg`There is nothing bound to verify yet`);
    await useCode(db, type, current, type === "email" ? "user_email_verify" : "user_mobile_verify", captcha);
    const token = randomBytes(24).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    await saveAccountVerified(db, type, member.id, hashToken(token), now, now + 600);
    return reply.success({ type, accountVerificationToken: token });
  });

  /** Step 2: bind a new email/mobile, proven by a code sent to it (and step 1 when one was bound). */
  const changeBindBody = jsonBody(
    z.object({
      type: bindingType,
      email: z.string().max(254).optional(),
      mobile: z.string().max(20).optional(),
      captcha: z.string().max(10),
      accountVerificationToken: z.string().max(100).optional(),
    }),
  );
  api.post("/api/account/changeBind", { config: memberOnly, schema: { body: changeBindBody } }, async (req, reply) => {
    const member = req.member!;
    const { type, captcha, accountVerificationToken } = req.body;
    const target = (type === "email" ? req.body.email : req.body.mobile)?.trim() ?? "";
    if (type === "email" ? !EMAIL.test(target) : !MOBILE.test(target)) {
      throw new ApiError(type === "email" ? msg`Please enter a correct email address` : msg`Please enter the correct mobile number`);
    }
    if (member[type]) {
      const now = Math.floor(Date.now() / 1000);
      if (!(await useAccountVerified(db, type, member.id, hashToken(accountVerificationToken ?? ""), now))) throw new ApiError(msg`Please verify your current account first`);
    }
    if (await bindingTaken(db, type, target, member.id)) throw new ApiError(type === "email" ? msg`This email address is already registered` : msg`This mobile number is already registered`);
    await useCode(db, type, target, type === "email" ? "user_change_email" : "user_change_mobile", captcha);
    await setBinding(db, type, member.id, target);
    return reply.success(null, msg`Saved`);
  });

  const retrieveBody = jsonBody(z.object({ type: bindingType, account: z.string().max(254), captcha: z.string().max(10), password: z.string().max(64) }));
  api.post(
    "/api/account/retrievePassword",
    { config: { auth: "public", rateLimit: { max: 10, timeWindow: "1 minute" } }, schema: { body: retrieveBody } },
    async (req, reply) => {
      const { type, account, captcha, password } = req.body;
      const invalid = validatePassword(password);
      if (invalid) throw new ApiError(invalid);
      const member = await memberByBinding(db, type, account.trim());
      if (!member) throw new ApiError(msg`No account uses this address`);
      await useCode(db, type, member.target, "user_retrieve_pwd", captcha);
      const hash = await hashPassword(password);
      await db.transaction(async (tx) => {
        await setPasswordHash(tx, member.id, hash, false);
        // Proving the bound address lifts the failed-login lock and captcha of the account.
        await clearLoginFailures(tx, "member", member.username);
        await deleteMemberSessions(tx, member.id);
      });
      return reply.success(null, msg`Password reset, please log in`);
    },
  );
}
