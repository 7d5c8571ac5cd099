import type { QuestionAdd } from "../../../shared/admin/questions.ts";
import type { QuestionOption, QuestionType } from "../../../shared/exam/types.ts";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/** The question types' names in both languages and default scores. */
export async function questionTypeRows(q: Queryable): Promise<{ type: QuestionType; title: string; title_en: string; default_score: string }[]> {
  const rows = await kyselyOf(q).selectFrom("exam_question_type").select(["type", "title", "title_en", "default_score"]).execute();
  return rows as unknown as { type: QuestionType; title: string; title_en: string; default_score: string }[];
}

export interface QuestionRowOut {
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  answer: unknown;
  analysis: string;
  difficulty: number;
  score: string;
  status: string;
}

/** A bank's questions that are not hidden, in the order members practise them. */
export async function questionsOfBank(q: Queryable, classifyId: number): Promise<QuestionRowOut[]> {
  const rows = await kyselyOf(q)
    .selectFrom("exam_question")
    .select(["type", "stem", "options", "answer", "analysis", "difficulty", "score", "status"])
    .where("classify_id", "=", classifyId)
    .where("status", "<>", "hidden")
    .orderBy("weigh", "desc")
    .orderBy("id")
    .execute();
  return rows as unknown as QuestionRowOut[];
}

/** Inserts the questions into the bank, all with this update_time, in one statement. */
export async function insertQuestionRows(q: Queryable, classifyId: number, questions: readonly QuestionAdd[], updateTime: number): Promise<void> {
  await kyselyOf(q)
    .insertInto("exam_question")
    .values(
      questions.map((x) => ({
        classify_id: classifyId,
        type: x.type,
        stem: x.stem,
        options: JSON.stringify(x.options),
        answer: JSON.stringify(x.answer),
        analysis: x.analysis,
        difficulty: x.difficulty,
        score: x.score,
        status: x.status,
        update_time: updateTime,
      })),
    )
    .execute();
}
