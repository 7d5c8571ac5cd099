import { queryOptions } from "@tanstack/react-query";
import type { BankDownload, Catalog, ClassifyNode } from "../../../shared/exam/catalog.ts";
import { request } from "../../api/index.ts";

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

export async function downloadBank(id: number, { quiet = false }: { quiet?: boolean } = {}): Promise<BankDownload> {
  // `quiet`: the caller shows the server's refusal itself (no toast repeating it).
  return (await request<BankDownload>({ url: "/api/exam/bank", method: "get", params: { id } }, { showErrorMessage: false, showCodeMessage: !quiet })).data;
}

/** Banks are the classify nodes that hold questions, with their parents' titles. */
export function flattenBanks(nodes: ClassifyNode[], path: string[] = []): { node: ClassifyNode; path: string[] }[] {
  return nodes.flatMap((node) => [
    ...(node.questionCount > 0 ? [{ node, path }] : []),
    ...flattenBanks(node.children, [...path, node.title]),
  ]);
}
