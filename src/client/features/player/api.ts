import { queryOptions } from "@tanstack/react-query";
import type { LessonDetail } from "../../../shared/course/types.ts";
import { request } from "../../api/index.ts";

/** Query options of the player (keys under "course", like the course screens', so one invalidation covers both). */
export const playerQueries = {
  lesson: (id: number) =>
    queryOptions({
      queryKey: ["course", "lesson", id] as const,
      // No toast: the lesson page says why it could not open (offline and not saved on this device, or the server's words).
      queryFn: async ({ signal }) =>
        (await request<LessonDetail>({ url: "/api/course/lesson", method: "get", params: { id }, signal }, { showErrorMessage: false, showCodeMessage: false })).data,
    }),
};
