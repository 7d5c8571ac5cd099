import { queryOptions } from "@tanstack/react-query";
import type { LessonDetail } from "../../../shared/course/types.ts";
import { request } from "../../api/index.ts";

/** Query options of the player (keys under "course", like the course screens', so one invalidation covers both). */
export const playerQueries = {
  lesson: (id: number) =>
    queryOptions({
      queryKey: ["course", "lesson", id] as const,
      queryFn: async ({ signal }) => (await request<LessonDetail>({ url: "/api/course/lesson", method: "get", params: { id }, signal })).data,
    }),
};
