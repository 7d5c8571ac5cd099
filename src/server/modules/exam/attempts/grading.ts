import { gradeAnswer, isAnswerShape, type GradeResult } from "../../../../shared/exam/grading.ts";
import type { PaperQuestion } from "./papers.ts";

export interface AttemptGrade {
  /** Question id -> its result, for the questions graded. */
  results: Record<string, GradeResult>;
  score: number;
  passed: boolean;
  /** Some answer waits for a marker. */
  needsReview: boolean;
}

/**
 * Grades an attempt's answers against the questions its paper can contain (`paperQuestions`),
 * with the shared grading of each question type. Only those questions count: an answer to any
 * other question is ignored. `questionIds` are the questions to grade (an official attempt's
 * drawn questions: an unanswered one scores 0); without them, the answered ones (a mock attempt
 * graded on its own word). Pure: the same input always gives the same grade.
 */
export function gradeAttempt(
  questions: ReadonlyMap<number, PaperQuestion>,
  answers: Record<string, unknown>,
  rules: { partialCredit: boolean; passScore: number },
  questionIds?: readonly number[],
  /** Question id -> the score a marker gave (short answers): counts in place of "undecided". */
  marks?: ReadonlyMap<number, number>,
): AttemptGrade {
  const ids = questionIds ?? Object.keys(answers).map(Number);
  const results: Record<string, GradeResult> = {};
  let score = 0;
  let needsReview = false;
  for (const id of ids) {
    const entry = questions.get(id);
    if (!entry) continue;
    const given = answers[String(id)];
    let graded: GradeResult =
      given === undefined || !isAnswerShape(entry.row.type, given)
        ? { correct: false, score: 0 }
        : gradeAnswer({ type: entry.row.type, answer: entry.row.answer, score: entry.score }, given, { partialCredit: rules.partialCredit });
    const marked = marks?.get(id);
    if (graded.correct === null && marked !== undefined) {
      const given = Math.min(Math.max(marked, 0), entry.score);
      graded = { correct: given >= entry.score, score: given };
    }
    results[String(id)] = graded;
    score += graded.score;
    if (graded.correct === null) needsReview = true;
  }
  score = Math.round(score * 100) / 100;
  return { results, score, passed: score >= Number(rules.passScore), needsReview };
}
