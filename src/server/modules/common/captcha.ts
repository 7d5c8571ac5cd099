import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { jsonBody, withMessage } from "../../../shared/schema.ts";
import { checkClickCaptcha, createClickCaptcha, isCaptchaId } from "../../auth/captcha.ts";
import { ApiError } from "../../errors.ts";

const invalidId = msg`Invalid captcha id`;
const captchaId = withMessage(z.string().refine(isCaptchaId), invalidId);
const checkBody = withMessage(jsonBody(z.object({ id: captchaId, info: z.unknown().optional(), unset: z.unknown().optional() })), invalidId);

/**
 * The click captcha (API.md): `GET /api/common/clickCaptcha?id=<uuid>` draws one and
 * `POST /api/common/checkClickCaptcha {id, info, unset}` checks the member's clicks (one try).
 */
export async function captchaRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Drawing costs CPU and a row: 60 a minute per client address is plenty for people.
  api.get(
    "/api/common/clickCaptcha",
    { config: { auth: "public", rateLimit: { max: 60, timeWindow: "1 minute" } }, schema: { querystring: z.object({ id: captchaId }) } },
    async (req, reply) => reply.success(await createClickCaptcha(db, req.query.id)),
  );

  api.post("/api/common/checkClickCaptcha", { config: { auth: "public" }, schema: { body: checkBody } }, async (req, reply) => {
    const { id, info } = req.body;
    const unset = [true, 1, "1", "true"].includes(req.body.unset as never);
    // Malformed info still spends the try (checkClickCaptcha deletes the captcha).
    switch (await checkClickCaptcha(db, id, typeof info === "string" ? info : "", unset)) {
      case "ok":
        return reply.success(null, msg`Verification is successful`);
      case "expired":
        throw new ApiError(msg`The captcha has expired, please get a new one`);
      case "unknown":
        throw new ApiError(msg`The captcha does not exist, please get a new one`);
      case "used":
        throw new ApiError(msg`The captcha has already been used, please get a new one`);
      case "malformed":
        throw new ApiError(msg`The click data is malformed, please try again`);
      case "wrong":
        throw new ApiError(msg`Wrong area clicked, try again`);
    }
  });
}
