import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { jsonBody } from "../../../shared/schema.ts";
import { sendCode, type CodeChannel, type CodeEvent } from "../../auth/codes.ts";
import { ApiError } from "../../errors.ts";
import { needLogin } from "../../plugins/auth.ts";
import { memberIdByAddress } from "./repository.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^1[3-9]\d{9}$/;

/**
 * `POST /api/Ems/send {email, event}` and `POST /api/Sms/send {mobile, template_code}`: a code
 * for registering, retrieving a password, or changing/verifying the bound address. Who may ask
 * depends on the event: registration needs an unused address, password retrieval a known one,
 * changes and verification a logged-in member (the route is `auth: 'optional'`: the event
 * decides whether the member must be there).
 */
export async function codeRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: "optional", rateLimit: { max: 10, timeWindow: "1 minute" } } as const;

  async function handle(req: FastifyRequest, channel: CodeChannel, target: string, event: string) {
    if (channel === "email" ? !EMAIL.test(target) : !MOBILE.test(target)) {
      throw new ApiError(channel === "email" ? msg`Please enter a correct email address` : msg`Please enter the correct mobile number`);
    }
    const column = channel === "email" ? "email" : "mobile";
    const registered = (await memberIdByAddress(db, column, target)) !== undefined;
    switch (event) {
      case "user_register":
        if (registered) throw new ApiError(channel === "email" ? msg`This email address is already registered` : msg`This mobile number is already registered`);
        break;
      case "user_retrieve_pwd":
        if (!registered) throw new ApiError(msg`No account uses this address`);
        break;
      case "user_change_email":
      case "user_change_mobile":
        if (!req.member) throw needLogin();
        if (registered) throw new ApiError(channel === "email" ? msg`This email address is already registered` : msg`This mobile number is already registered`);
        break;
      case "user_email_verify":
      case "user_mobile_verify": {
        const member = req.member;
        if (!member) throw needLogin();
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

  const emailBody = jsonBody(z.object({ email: z.string().max(254), event: z.string().max(40) }));
  api.post("/api/Ems/send", { config, schema: { body: emailBody } }, async (req, reply) => {
    await handle(req, "email", req.body.email.trim(), req.body.event);
    return reply.success(null, msg`The code has been sent`);
  });

  const mobileBody = jsonBody(z.object({ mobile: z.string().max(20), template_code: z.string().max(40) }));
  api.post("/api/Sms/send", { config, schema: { body: mobileBody } }, async (req, reply) => {
    await handle(req, "mobile", req.body.mobile.trim(), req.body.template_code);
    return reply.success(null, msg`The code has been sent`);
  });
}
