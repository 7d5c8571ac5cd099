import type { CorrectAnswer, ExamQuestion, QuestionOption, QuestionType } from "../../../shared/exam/types.ts";
import type { Queryable } from "../../db/index.ts";

/** The columns of `exam_question` a `QuestionRow` holds. */
export const QUESTION_COLUMNS = "id, classify_id, type, stem, options, answer, analysis, difficulty, score, version";

export interface QuestionRow {
  id: number;
  classify_id: number;
  type: QuestionType;
  stem: string;
  options: QuestionOption[];
  answer: CorrectAnswer;
  analysis: string;
  difficulty: number;
  score: number;
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

/**
 * A question a device may have practised, as SQL on `exam_question q`: enabled, or hidden since
 * (deleted while in use, its restore status enabled): a device offline then still answered it,
 * and its answers and reviews must not be lost when they arrive.
 */
export const PRACTISED = "(q.status = 'enable' or (q.status = 'hidden' and q.hidden_status = 'enable'))";

/** A question that is not withheld (exam-only content, see withheld.ts), as SQL on `exam_question q`. */
export const PRACTISABLE = "not exists (select 1 from exam_withheld_question w where w.question_id = q.id)";

/** A practice bank's questions, without the withheld ones (they stay on the server until their rooms end). */
export async function bankQuestions(db: Queryable, bankId: number): Promise<QuestionRow[]> {
  const { rows } = await db.query<QuestionRow>(
    `select ${QUESTION_COLUMNS} from exam_question q
     where classify_id = $1 and status = 'enable' and ${PRACTISABLE} order by weigh desc, id`,
    [bankId],
  );
  return rows;
}

/**
 * A bank's content version, as SQL over `exam_classify c` left-joined with its practisable enabled
 * questions `q` (grouped by c.id): changes whenever a question is added, edited, reordered,
 * removed, withheld or released (count, newest question update_time, id sum), and when the bank
 * itself is renamed (its own update_time). Both writes keep update_time moving forward, so two
 * writes within one second still change it (crud/resources/exam.ts).
 */
export const BANK_VERSION_SQL =
  "count(q.id) || '-' || coalesce(max(q.update_time), 0) || '-' || coalesce(sum(q.id), 0) || '-' || c.update_time";

/** A bank's content version (see BANK_VERSION_SQL) and its question count. */
export async function bankVersion(db: Queryable, bankId: number): Promise<{ count: number; version: string }> {
  const { rows } = await db.query<{ n: number; version: string }>(
    `select count(q.id)::int as n, ${BANK_VERSION_SQL} as version
     from exam_classify c left join exam_question q on q.classify_id = c.id and q.status = 'enable' and ${PRACTISABLE}
     where c.id = $1 group by c.id`,
    [bankId],
  );
  const r = rows[0] ?? { n: 0, version: "0-0-0-0" };
  return { count: r.n, version: r.version };
}
