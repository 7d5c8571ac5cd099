import { z } from "zod";
import { dbId } from "../schema.ts";
import type { PayloadSchemaAt } from "./protocol.ts";

/** The course ops: lesson progress (the rules: src/server/modules/course/progress.ts). */

const lessonProgressPayload = z.object({
  lessonId: dbId,
  position: z.number().nonnegative(), // seconds into the video; finite (zod 4 rejects Infinity)
  completed: z.boolean(),
});

/** Payload schemas of the course op types, by type. */
export const courseOpPayloads = {
  "lesson.progress": () => lessonProgressPayload,
} satisfies Record<string, PayloadSchemaAt>;
