import { z } from "zod";
import { dbId } from "./schema.ts";

/** Notices to members (shared/noticeFacts.ts), and the member endpoints' bodies. */
export * from "./noticeFacts.ts";

export const noticePreferenceBody = z.object({
  room_open: z.boolean(),
  room_closing: z.boolean(),
  result: z.boolean(),
  push: z.boolean(),
  email: z.boolean(),
});

export const noticeReadBody = z.object({ id: dbId });
