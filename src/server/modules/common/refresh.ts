import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { rotateRefreshToken } from "../../auth/tokens.ts";
import { ApiError } from "../../errors.ts";

/**
 * `POST /api/common/refreshToken {refreshToken}` (API.md, SPEC §4): a valid admin or member
 * refresh token is exchanged for `{type, token, refreshToken}`: a new access token and a new
 * refresh token of the same session; the old refresh token stops working (rotation, see
 * `rotateRefreshToken`: a reuse after the short grace ends the session). Expired, unknown or
 * reused refresh tokens answer code 0.
 */
export async function refreshRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  app.post("/api/common/refreshToken", async (req, reply) => {
    const body = z.object({ refreshToken: z.string().min(1).max(200) }).safeParse(req.body ?? {});
    if (!body.success) throw new ApiError(msg`Invalid token, please log in again`);
    const outcome = await rotateRefreshToken(db, body.data.refreshToken, config.tokenTtl);
    if (outcome.status === "reused") {
      req.log.warn({ side: outcome.side, userId: outcome.userId }, "an exchanged refresh token was used again: session ended");
    }
    if (outcome.status !== "rotated") throw new ApiError(msg`Invalid token, please log in again`);
    return reply.success({ type: `${outcome.side}-refresh`, token: outcome.token, refreshToken: outcome.refreshToken });
  });
}
