import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { sendCode, type CodeChannel, type CodeEvent } from "../../auth/codes.ts";
import { ApiError } from "../../errors.ts";
import { requireMember } from "../../plugins/auth.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^1[3-9]\d{9}$/;

/**
 * `POST /api/Ems/send {email, event}` and `POST /api/Sms/send {mobile, template_code}`: a code
 * for registering, retrieving a password, or changing/verifying the bound address. Who may ask
 * depends on the event: registration needs an unused address, password retrieval a known one,
 * changes and verification a logged-in member.
 */
export async function codeRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const rateLimit = { config: { rateLimit: { max: 10, timeWindow: "1 minute" } } };

  async function handle(req: FastifyRequest, channel: CodeChannel, target: string, event: string) {
    if (channel === "email" ? !EMAIL.test(target) : !MOBILE.test(target)) {
      throw new ApiError(channel === "email" ? msg`Please enter a correct email address` : msg`Please enter the correct mobile number`);
    }
    const column = channel === "email" ? "email" : "mobile";
    const owner = await db.query<{ id: number }>(`select id from member where lower(${column}) = lower($1)`, [target]);
    const registered = owner.rows.length > 0;
    switch (event) {
      case "user_register":
        if (registered) throw new ApiError(channel === "email" ? msg`This email address is already registered` : msg`This mobile number is already registered`);
        break;
      case "user_retrieve_pwd":
        if (!registered) throw new ApiError(msg`No account uses this address`);
        break;
      case "user_change_email":
      case "user_change_mobile":
        await requireMember(db, req);
        if (registered) throw new ApiError(channel === "email" ? msg`This email address is already registered` : msg`This mobile number is already registered`);
        break;
      case "user_email_verify":
      case "user_mobile_verify": {
        const member = await requireMember(db, req);
        if ((member[column] ?? "").toLowerCase() !== target.toLowerCase()) throw new ApiError(msg`This is not the address bound to your account`);
        break;
      }
      default:
        throw new ApiError(msg`Incorrect parameter!`);
    }
    if ((channel === "email") !== event.includes("email") && (event.includes("email") || event.includes("mobile"))) {
      throw new ApiError(msg`Incorrect parameter!`);
    }
    await sendCode(db, app.sender, req.t, channel, target, event as CodeEvent);
  }

  app.post("/api/Ems/send", rateLimit, async (req, reply) => {
    const parsed = z.object({ email: z.string().max(254), event: z.string().max(40) }).safeParse(req.body ?? {});
    if (!parsed.success) throw new ApiError(msg`Incorrect parameter!`);
    await handle(req, "email", parsed.data.email.trim(), parsed.data.event);
    return reply.success(null, msg`The code has been sent`);
  });

  app.post("/api/Sms/send", rateLimit, async (req, reply) => {
    const parsed = z.object({ mobile: z.string().max(20), template_code: z.string().max(40) }).safeParse(req.body ?? {});
    if (!parsed.success) throw new ApiError(msg`Incorrect parameter!`);
    await handle(req, "mobile", parsed.data.mobile.trim(), parsed.data.template_code);
    return reply.success(null, msg`The code has been sent`);
  });
}
