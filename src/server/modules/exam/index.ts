import type { FastifyInstance } from "fastify";
import { catalogRoutes } from "./catalog.ts";
import { attemptRoutes } from "./attempts.ts";
import { lookupRoutes } from "./lookup.ts";

export async function examRoutes(app: FastifyInstance): Promise<void> {
  await app.register(catalogRoutes);
  await app.register(attemptRoutes);
  await app.register(lookupRoutes);
}
