import type { FastifyInstance } from "fastify";
import { areaRoutes } from "./area.ts";
import { uploadRoutes } from "./routes.ts";
import { suffixSvgRoutes } from "./suffixSvg.ts";

export { areaRoutes, suffixSvgRoutes, uploadRoutes };

/** Uploads and `/storage/`, area data, file-type icons: one plugin for app.ts to register. */
export async function fileRoutes(app: FastifyInstance): Promise<void> {
  await app.register(uploadRoutes);
  await app.register(areaRoutes);
  await app.register(suffixSvgRoutes);
}
