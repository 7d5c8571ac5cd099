import type { ExamQuestion } from "./types.ts";

/** Question ids one `GET /api/exam/questions` may ask for. */
export const MAX_LOOKUP_IDS = 100;

/**
 * `GET /api/exam/questions?ids=1,2,3`: questions by id (for favourites and wrong-book entries
 * whose bank is not on the device), without answers or analysis — those come with the bank
 * download, which decides what the member may see. Unknown or disabled ids are left out.
 */
export interface QuestionLookup {
  questions: Omit<ExamQuestion, "answer" | "analysis">[];
  /** The banks (classify nodes) of those questions. */
  banks: { id: number; title: string }[];
}
