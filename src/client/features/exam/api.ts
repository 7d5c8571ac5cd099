import { queryOptions } from "@tanstack/react-query";
import type { Catalog, ClassifyNode } from "../../../shared/exam/catalog.ts";
import { request } from "../../api/index.ts";

export { downloadBank } from "./bankDownload.ts";

/** Query-key factory and fetchers of the exam screens. */
export const examQueries = {
  all: () => ["exam"] as const,
  catalog: () =>
    queryOptions({
      queryKey: [...examQueries.all(), "catalog"] as const,
      queryFn: async ({ signal }) => (await request<Catalog>({ url: "/api/exam/catalog", method: "get", signal })).data,
      staleTime: 60_000,
    }),
};


/** Banks are the classify nodes that hold questions, with their parents' titles. */
export function flattenBanks(nodes: ClassifyNode[], path: string[] = []): { node: ClassifyNode; path: string[] }[] {
  return nodes.flatMap((node) => [
    ...(node.questionCount > 0 ? [{ node, path }] : []),
    ...flattenBanks(node.children, [...path, node.title]),
  ]);
}
