import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { HealthData } from "../../../shared/envelope.ts";
import { envelope } from "../../plugins/envelope.ts";
import { APP_VERSION } from "../../version.ts";
import { pingDatabase } from "./repository.ts";

/** `GET /api/health`: answers only after a real round trip to the database. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get("/api/health", { config: { auth: "public" } }, async (req, reply) => {
    try {
      await pingDatabase(app.db);
      return reply.success<HealthData>({ db: "ok", version: APP_VERSION });
    } catch (error) {
      req.log.error({ err: error }, "health check: database query failed");
      const data: HealthData = { db: "error", version: APP_VERSION };
      return reply.code(503).send(envelope(0, req.t(msg`The database is unavailable`), data));
    }
  });
}
