import { queryOptions } from "@tanstack/react-query";
import type { Mastery } from "../../../shared/sync/review.ts";
import { request } from "../../api/index.ts";

/** Mastery by topic from the server (`GET /api/exam/review/mastery`): every answer of every device. */
export const masteryQuery = () =>
  queryOptions({
    queryKey: ["exam", "review", "mastery"] as const,
    queryFn: async ({ signal }) => (await request<Mastery>({ url: "/api/exam/review/mastery", method: "get", signal }, { showErrorMessage: false })).data,
    staleTime: 30_000,
  });

/** Whole minutes a review takes, at least 1. */
export function minutesOf(seconds: number): number {
  return Math.max(1, Math.round(seconds / 60));
}
