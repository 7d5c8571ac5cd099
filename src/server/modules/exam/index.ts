import type { FastifyInstance } from "fastify";
import { declareAuth } from "../../plugins/auth.ts";
import { catalogRoutes } from "./catalog.ts";
import { attemptRoutes } from "./attempts/index.ts";
import { lookupRoutes } from "./lookup.ts";
import { reviewRoutes } from "./review.ts";

export async function examRoutes(app: FastifyInstance): Promise<void> {
  await app.register(catalogRoutes);
  // Every route of the attempt module is a member's own (declared here for them).
  await app.register(declareAuth("member", attemptRoutes));
  await app.register(lookupRoutes);
  await app.register(reviewRoutes);
}
