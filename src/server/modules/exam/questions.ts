import type { QuestionVersion } from "../../../shared/admin/questions.ts";
import type { ExamQuestion } from "../../../shared/exam/types.ts";
import type { Queryable } from "../../db/index.ts";
import { bankVersionRow } from "./repository.ts";

/** A question as its row holds it: its bank, and the content one of its versions holds. */
export interface QuestionRow extends Pick<QuestionVersion, "type" | "stem" | "options" | "answer" | "analysis" | "difficulty" | "score"> {
  id: number;
  classify_id: number;
  /**
   * Its version (migration 0042): counts up with each change to what members read or how it is
   * graded. Every row read from the database has it; a snapshot made before versions does not.
   */
  version?: number;
}

/** A question as the client gets it; answers and analysis only where the member may see them. */
export function presentQuestion(row: QuestionRow, withAnswer: boolean): ExamQuestion {
  return {
    id: row.id,
    type: row.type,
    classifyId: row.classify_id,
    stem: row.stem,
    options: row.options,
    ...(withAnswer ? { answer: row.answer, analysis: row.analysis } : {}),
    score: Number(row.score),
    difficulty: Math.min(5, Math.max(1, row.difficulty)) as ExamQuestion["difficulty"],
    ...(row.version ? { version: row.version } : {}),
  };
}

/** A bank's content version (see BANK_VERSION_SQL in repository.ts) and its question count. */
export async function bankVersion(db: Queryable, bankId: number): Promise<{ count: number; version: string }> {
  const r = (await bankVersionRow(db, bankId)) ?? { n: 0, version: "0-0-0-0" };
  return { count: r.n, version: r.version };
}
