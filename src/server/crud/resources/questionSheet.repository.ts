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
  id: number;
  weigh: number;
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  answer: unknown;
  analysis: string;
  difficulty: number;
  score: string;
  status: string;
}

/**
 * One batch of a bank's questions that are not hidden, in the order members practise them
 * (weigh descending, then id): the first `limit` after the question `after` (its weigh and id),
 * keyset-read on the bank's index (classify_id, weigh desc, id): the rest of `after`'s weigh,
 * then the lower weighs, each a range of that index.
 */
export async function questionsOfBank(q: Queryable, classifyId: number, after: { weigh: number; id: number } | null, limit: number): Promise<QuestionRowOut[]> {
  const k = kyselyOf(q);
  const columns = ["id", "weigh", "type", "stem", "options", "answer", "analysis", "difficulty", "score", "status"] as const;
  const bank = k.selectFrom("exam_question").select(columns).where("classify_id", "=", classifyId).where("status", "<>", "hidden");
  if (after === null) return (await bank.orderBy("weigh", "desc").orderBy("id").limit(limit).execute()) as unknown as QuestionRowOut[];
  // Each part its own subquery: an order and a limit apply to it alone.
  const sameWeigh = k.selectFrom(bank.where("weigh", "=", after.weigh).where("id", ">", after.id).orderBy("id").limit(limit).as("same")).selectAll();
  const lower = k.selectFrom(bank.where("weigh", "<", after.weigh).orderBy("weigh", "desc").orderBy("id").limit(limit).as("lower")).selectAll();
  const rows = await k.selectFrom(sameWeigh.unionAll(lower).as("batch")).selectAll().orderBy("weigh", "desc").orderBy("id").limit(limit).execute();
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
