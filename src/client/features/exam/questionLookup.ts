import { queryOptions } from "@tanstack/react-query";
import { MAX_LOOKUP_IDS, type QuestionLookup } from "../../../shared/exam/lookup.ts";
import { request } from "../../api/index.ts";

/**
 * Questions by id from the server (`GET /api/exam/questions`), for favourites and wrong-book
 * entries whose bank is not on this device: stems and options only, in batches of 100.
 */
export const questionLookupQuery = (ids: readonly number[]) => {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  return queryOptions({
    queryKey: ["exam", "questions", sorted] as const,
    queryFn: async ({ signal }): Promise<QuestionLookup> => {
      const out: QuestionLookup = { questions: [], banks: [] };
      for (let i = 0; i < sorted.length; i += MAX_LOOKUP_IDS) {
        const batch = sorted.slice(i, i + MAX_LOOKUP_IDS);
        const { data } = await request<QuestionLookup>(
          { url: "/api/exam/questions", method: "get", params: { ids: batch.join(",") }, signal },
          // The list shows its own note when this fails; no toast for a background lookup.
          { showErrorMessage: false, cancelDuplicateRequest: false },
        );
        out.questions.push(...data.questions);
        for (const bank of data.banks) if (!out.banks.some((b) => b.id === bank.id)) out.banks.push(bank);
      }
      return out;
    },
    staleTime: 5 * 60_000,
  });
};
