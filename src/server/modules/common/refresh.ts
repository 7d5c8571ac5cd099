import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { checkToken, issueToken } from "../../auth/tokens.ts";
import { ApiError } from "../../errors.ts";

/**
 * `POST /api/common/refreshToken {refreshToken}` (API.md): a valid admin or member refresh
 * token buys a new access token. The old access token is left to expire (it already has, or
 * nearly): revoking it here would turn the 409s of requests still in flight with it into
 * "need login" instead of a replay. Expired or unknown refresh tokens answer code 0.
 */
export async function refreshRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  app.post("/api/common/refreshToken", async (req, reply) => {
    const body = z.object({ refreshToken: z.string().min(1).max(200) }).safeParse(req.body ?? {});
    if (!body.success) throw new ApiError(msg`Invalid token, please log in again`);
    const token = body.data.refreshToken;
    for (const side of ["admin", "user"] as const) {
      const check = await checkToken(db, token, `${side}-refresh`);
      if (check.status !== "valid") continue;
      const fresh = await issueToken(db, side, check.userId, config.tokenTtl.access);
      return reply.success({ type: `${side}-refresh`, token: fresh });
    }
    throw new ApiError(msg`Invalid token, please log in again`);
  });
}
