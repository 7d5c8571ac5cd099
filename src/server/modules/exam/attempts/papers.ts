import type { Queryable } from "../../../db/index.ts";
import type { QuestionRow } from "../questions.ts";
import { drawPoolRows, enabledPaperWithRows, fixedQuestionRow } from "./repository.ts";

/** A paper: its marks, time and grading options (its questions are its rows). */
export interface PaperRow {
  id: number;
  title: string;
  total_score: number;
  pass_score: number;
  duration: number;
  partial_credit: boolean;
  shuffle_options: boolean;
}

/**
 * One row of a paper: a fixed question, or `count` questions drawn from a bank's questions of a
 * type and, when `difficulty` (1..5) is set, of that difficulty (null: any). This is also the wire
 * shape of `GET /api/exam/paper`'s rows: the device draws mock papers by the same rule.
 */
export type PaperRowSpec =
  /** `version`: the question's version the row pins (migration 0042); null: its latest. */
  | { kind: "fixed"; questionId: number; version: number | null; score: number }
  | { kind: "draw"; classifyId: number; questionType: string; difficulty: number | null; count: number; score: number };

type DrawSpec = Extract<PaperRowSpec, { kind: "draw" }>;

/**
 * The enabled questions a draw row can pick: its classify, its type and, when set, its difficulty.
 * With `sample`, a random `count` of them (`order by random() limit`: every subset equally likely,
 * in random order) leaving out the ids in `exclude`, so a draw reads only what it keeps.
 */
async function drawPool(db: Queryable, spec: DrawSpec, sample?: { exclude: number[]; count: number }): Promise<QuestionRow[]> {
  return drawPoolRows(db, spec, sample);
}

/**
 * A fixed row's question as the row gives it: its latest version, or the version the row pins
 * (the question's own status, bank and default score stay today's). `enabledOnly`: only if the
 * question is enabled (what a start gives).
 */
async function fixedQuestion(db: Queryable, spec: Extract<PaperRowSpec, { kind: "fixed" }>, enabledOnly: boolean): Promise<QuestionRow | undefined> {
  return fixedQuestionRow(db, spec.questionId, spec.version, enabledOnly);
}

/** A question a paper can contain, with the score the paper gives it. */
export interface PaperQuestion {
  row: QuestionRow;
  score: number;
}

/** An enabled paper and its rows in paper order, or null (one statement: a start's transaction runs it). */
export async function loadPaper(db: Queryable, id: number): Promise<{ paper: PaperRow; rows: PaperRowSpec[] } | null> {
  const found = await enabledPaperWithRows(db, id);
  if (!found) return null;
  const { spec, ...paper } = found;
  const rows = spec.map((row): PaperRowSpec =>
    row.kind === "fixed"
      ? { kind: "fixed", questionId: row.question_id!, version: row.question_version ?? null, score: Number(row.score) }
      : { kind: "draw", classifyId: row.classify_id!, questionType: row.question_type ?? "single", difficulty: row.difficulty ?? null, count: row.count, score: Number(row.score) },
  );
  return { paper, rows };
}

/** Every question a paper can contain (its fixed ids, every question a draw row could pick), by id: what grading may count. */
export async function paperQuestions(db: Queryable, rows: PaperRowSpec[]): Promise<Map<number, PaperQuestion>> {
  const out = new Map<number, PaperQuestion>();
  for (const spec of rows) {
    const qs = spec.kind === "fixed" ? [await fixedQuestion(db, spec, false)].filter((q) => q !== undefined) : await drawPool(db, spec);
    for (const q of qs) out.set(q.id, { row: q, score: spec.score });
  }
  return out;
}

/**
 * The questions of one sitting of a paper, in paper order: its enabled fixed questions and a random
 * draw for each draw row (its type and difficulty). No question appears twice: fixed rows claim
 * theirs first, and a draw skips what an earlier row took (e.g. a rule of difficulty 4 and one of
 * any difficulty over the same bank) — the device's mock draw (drawQuestions) does the same.
 * The database draws (drawPool's sample), so a start reads the questions it keeps, not the whole pool.
 */
export async function drawForPaper(db: Queryable, rows: PaperRowSpec[]): Promise<PaperQuestion[]> {
  const out: PaperQuestion[] = [];
  const fixedIds = new Set(rows.flatMap((r) => (r.kind === "fixed" ? [r.questionId] : [])));
  const picked = new Set<number>();
  for (const spec of rows) {
    if (spec.kind === "fixed") {
      const q = await fixedQuestion(db, spec, true);
      if (q && !picked.has(q.id)) {
        picked.add(q.id);
        out.push({ row: q, score: spec.score });
      }
    } else if (spec.count > 0) {
      for (const q of await drawPool(db, spec, { exclude: [...new Set([...picked, ...fixedIds])], count: spec.count })) {
        picked.add(q.id);
        out.push({ row: q, score: spec.score });
      }
    }
  }
  return out;
}
