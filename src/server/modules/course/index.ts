import type { FastifyInstance } from "fastify";
import { fileStore } from "../upload/store.ts";
import { installDemoMedia } from "./media.ts";
import { courseApiRoutes } from "./routes.ts";

export { applyLessonProgress, type LessonProgressOutcome } from "./progress.ts";
export { sanitizeRichText } from "./html.ts";

/** Courses and lessons (src/shared/course/types.ts), and the demo media copied into storage. */
export async function courseRoutes(app: FastifyInstance): Promise<void> {
  app.whenOpen(() => installDemoMedia(app.db, fileStore(app.config), app.log));
  await app.register(courseApiRoutes);
}
