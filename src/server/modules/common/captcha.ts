import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { checkClickCaptcha, createClickCaptcha, isCaptchaId } from "../../auth/captcha.ts";
import { ApiError } from "../../errors.ts";

const checkBody = z.object({ id: z.string().max(64), info: z.unknown().optional(), unset: z.unknown().optional() });

/**
 * The click captcha (API.md): `GET /api/common/clickCaptcha?id=<uuid>` draws one and
 * `POST /api/common/checkClickCaptcha {id, info, unset}` checks the member's clicks (one try).
 */
export async function captchaRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  // Drawing costs CPU and a row: 60 a minute per client address is plenty for people.
  app.get("/api/common/clickCaptcha", { config: { rateLimit: { max: 60, timeWindow: "1 minute" } } }, async (req, reply) => {
    const { id } = (req.query ?? {}) as { id?: unknown };
    if (!isCaptchaId(id)) throw new ApiError(msg`Invalid captcha id`);
    return reply.success(await createClickCaptcha(db, id));
  });

  app.post("/api/common/checkClickCaptcha", async (req, reply) => {
    const parsed = checkBody.safeParse(req.body ?? {});
    if (!parsed.success || !isCaptchaId(parsed.data.id)) throw new ApiError(msg`Invalid captcha id`);
    const { id, info } = parsed.data;
    const unset = [true, 1, "1", "true"].includes(parsed.data.unset as never);
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
