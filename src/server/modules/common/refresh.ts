import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { jsonBody, safeText, withMessage } from "../../../shared/schema.ts";
import { rotateRefreshToken } from "../../auth/tokens.ts";
import { ApiError } from "../../errors.ts";
import { issueSessionMediaCookie } from "../course/mediaAccess.ts";

const invalidToken = msg`Invalid token, please log in again`;

const refreshBody = withMessage(
  jsonBody(
    z.object({
      refreshToken: safeText(200).min(1),
      /** Which side the client holds the token for; older clients leave it out. */
      side: z.enum(["admin", "user"]).optional(),
    }),
  ),
  invalidToken,
);

/**
 * `POST /api/common/refreshToken {refreshToken, side}` (API.md, SPEC §4): a valid refresh token
 * of that side (`admin` or `user`; either when `side` is left out) is exchanged for
 * `{type, token, refreshToken}`: a new access token and a new refresh token of the same session;
 * the old refresh token stops working (rotation, see `rotateRefreshToken`: a reuse after the
 * short grace ends the session). Expired, unknown, reused or other-side refresh tokens answer
 * code 0. A member's refresh also sets the media cookie of the session again (mediaAccess.ts),
 * so lesson videos keep playing with the new token.
 */
export async function refreshRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  app.withTypeProvider<ZodTypeProvider>().post(
    "/api/common/refreshToken",
    { config: { auth: "public" }, schema: { body: refreshBody } },
    async (req, reply) => {
      const outcome = await rotateRefreshToken(db, req.body.refreshToken, config.tokenTtl, { side: req.body.side });
      if (outcome.status === "reused") {
        req.log.warn({ side: outcome.side, userId: outcome.userId }, "an exchanged refresh token was used again: session ended");
      }
      if (outcome.status !== "rotated") throw new ApiError(invalidToken);
      if (outcome.side === "user") await issueSessionMediaCookie(db, req, reply, outcome.userId, outcome.sessionId);
      return reply.success({ type: `${outcome.side}-refresh`, token: outcome.token, refreshToken: outcome.refreshToken });
    },
  );
}
