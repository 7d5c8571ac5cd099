import type { FastifyInstance } from "fastify";
import { resources } from "./resources/index.ts";
import { checkResource, mountResource } from "./routes.ts";

/** The back office's CRUD routes, one set per registered resource. */
export async function crudRoutes(app: FastifyInstance): Promise<void> {
  for (const def of resources) {
    checkResource(def);
    mountResource(app, def);
  }
}
