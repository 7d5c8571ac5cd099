import type { FastifyInstance } from "fastify";
import { mockRoutes } from "./mock.ts";
import { officialRoutes } from "./official.ts";
import { recordRoutes } from "./records.ts";

/**
 * Attempts at papers, one file per concern: papers.ts (a paper's rows, the questions it can
 * contain, a sitting's draw), grading.ts (pure scoring of an attempt, for mock and official
 * alike), attempt.ts (the attempt row; grading what it holds and closing it), mock.ts (mock
 * papers and the server's grading of a submitted mock attempt), official.ts (official exams on
 * the server's clock), late.ts (answers after the deadline, a marker's decision), records.ts
 * (the member's test records). Every route here is a member's own (the module declares it).
 */
export async function attemptRoutes(app: FastifyInstance): Promise<void> {
  await app.register(mockRoutes);
  await app.register(recordRoutes);
  await app.register(officialRoutes);
}

export { applyMockSubmit } from "./mock.ts";
export { decideLateAnswer, type LateDecision } from "./late.ts";
export { officialAnswerOp, officialAnswerOpAlone } from "./official.ts";
