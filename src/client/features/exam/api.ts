import { queryOptions } from "@tanstack/react-query";
import type { ExamQuestion } from "../../../shared/exam/types.ts";
import { request } from "../../api/index.ts";

export interface ClassifyNode {
  id: number;
  pid: number;
  title: string;
  questionCount: number;
  version: string;
  children: ClassifyNode[];
}

export interface Catalog {
  classify: ClassifyNode[];
  papers: { id: number; title: string; totalScore: number; passScore: number; duration: number }[];
  rooms: { id: number; title: string; paperId: number; startTime: number; endTime: number; duration: number; attemptsAllowed: number }[];
}

export interface BankDownload {
  bank: { id: number; title: string; version: string; questionCount: number };
  questions: ExamQuestion[];
}

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

export async function downloadBank(id: number): Promise<BankDownload> {
  return (await request<BankDownload>({ url: "/api/exam/bank", method: "get", params: { id } }, { showErrorMessage: false })).data;
}

/** Banks are the classify nodes that hold questions, with their parents' titles. */
export function flattenBanks(nodes: ClassifyNode[], path: string[] = []): { node: ClassifyNode; path: string[] }[] {
  return nodes.flatMap((node) => [
    ...(node.questionCount > 0 ? [{ node, path }] : []),
    ...flattenBanks(node.children, [...path, node.title]),
  ]);
}
