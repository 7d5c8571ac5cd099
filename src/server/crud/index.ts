import type { FastifyInstance } from "fastify";
import { setMountedResources } from "./registry.ts";
import { resources } from "./resources/index.ts";
import { checkResource, mountResource } from "./routes.ts";

/** The back office's CRUD routes, one set per registered resource. */
export async function crudRoutes(app: FastifyInstance): Promise<void> {
  setMountedResources(resources);
  for (const def of resources) {
    checkResource(def);
    mountResource(app, def);
  }
}
