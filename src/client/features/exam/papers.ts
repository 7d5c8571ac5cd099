import { z } from "zod";
import { isQuestionType, type Difficulty, type ExamQuestion, type QuestionType } from "../../../shared/exam/types.ts";

export { formatRemaining } from "./remaining.ts";

/**
 * Mock papers on the client: the `GET /api/exam/paper` shape, its cached copy (so a paper opened
 * once online can be sat offline) and the pure question draw.
 */

export type PaperRow =
  /** `question`: the version the row pins, sent with the paper (the device's banks hold the latest). */
  | { kind: "fixed"; questionId: number; score: number; version?: number | null; question?: ExamQuestion }
  /** `difficulty` 1..5 draws only questions of that difficulty; null: any (a paper sent or cached before draw rules had one). */
  | { kind: "draw"; classifyId: number; questionType: QuestionType; difficulty: Difficulty | null; count: number; score: number };

export interface PaperInfo {
  id: number;
  title: string;
  totalScore: number;
  passScore: number;
  /** Seconds; 0: no time limit. */
  duration: number;
  partialCredit: boolean;
  shuffleOptions: boolean;
}

/** `GET /api/exam/paper?id=`. */
export interface PaperDetail {
  paper: PaperInfo;
  rows: PaperRow[];
  /** Classify (bank) ids whose questions the paper uses. */
  banks: number[];
}

const num = z.coerce.number().refine(Number.isFinite);
const id = z.coerce.number().int().positive();

const paperSchema = z.object({
  paper: z.object({
    id,
    title: z.string(),
    totalScore: num,
    passScore: num,
    duration: num.default(0),
    partialCredit: z.coerce.boolean().default(false),
    shuffleOptions: z.coerce.boolean().default(false),
  }),
  rows: z.array(
    z.union([
      z.object({
        kind: z.literal("fixed"),
        questionId: id,
        score: num,
        version: id.nullish(),
        question: z
          .custom<ExamQuestion>((v) => typeof v === "object" && v !== null && typeof (v as ExamQuestion).id === "number" && typeof (v as ExamQuestion).stem === "string")
          .optional(),
      }),
      z.object({
        kind: z.literal("draw"),
        classifyId: id,
        questionType: z.string().refine(isQuestionType),
        // Absent (an older server, a copy cached before) or null: any difficulty.
        difficulty: z
          .number()
          .int()
          .min(1)
          .max(5)
          .nullish()
          .transform((d) => (d ?? null) as Difficulty | null),
        count: z.coerce.number().int().nonnegative(),
        score: num,
      }),
    ]),
  ),
  banks: z.array(id),
});

/** The paper in the wire shape, or null when `value` is not one. */
export function parsePaper(value: unknown): PaperDetail | null {
  const parsed = paperSchema.safeParse(value);
  return parsed.success ? (parsed.data as PaperDetail) : null;
}

export const PAPER_CACHE_PREFIX = "examhub.paper.";

export function paperCacheKey(paperId: number): string {
  return `${PAPER_CACHE_PREFIX}${paperId}`;
}

function defaultStorage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null; // storage disabled (private mode, policies)
  }
}

/** The last fetched copy of a paper on this device, or null. */
export function readCachedPaper(paperId: number, storage: Storage | null = defaultStorage()): PaperDetail | null {
  try {
    const text = storage?.getItem(paperCacheKey(paperId));
    return text ? parsePaper(JSON.parse(text)) : null;
  } catch {
    return null;
  }
}

export function writeCachedPaper(detail: PaperDetail, storage: Storage | null = defaultStorage()): void {
  try {
    storage?.setItem(paperCacheKey(detail.paper.id), JSON.stringify(detail));
  } catch {
    // Quota or disabled storage: the paper then needs the network next time.
  }
}

export interface DrawResult {
  questions: ExamQuestion[];
  /** Classify ids a draw row needs that are not on the device. */
  missing: number[];
  /** Fixed questions found in none of the given banks. */
  missingQuestions: number[];
}

/**
 * The questions of one attempt, in paper order: a fixed row takes its question from any bank (or
 * the version it pins, sent with the paper), a
 * draw row `count` random questions of its type (and its difficulty, when it has one) from its
 * classify — the server's rule (drawPool in modules/exam/attempts/papers.ts). No question appears twice;
 * each takes its row's score. A draw from a bank with fewer matching questions takes them all.
 */
export function drawQuestions(
  rows: readonly PaperRow[],
  questionsByBank: ReadonlyMap<number, readonly ExamQuestion[]>,
  random: () => number,
): DrawResult {
  const byId = new Map<number, ExamQuestion>();
  for (const list of questionsByBank.values()) for (const q of list) if (!byId.has(q.id)) byId.set(q.id, q);
  const picked = new Set<number>();
  const questions: ExamQuestion[] = [];
  const missing: number[] = [];
  const missingQuestions: number[] = [];
  // Fixed rows claim their questions first, wherever they sit in the paper.
  const fixedIds = new Set(rows.flatMap((r) => (r.kind === "fixed" ? [r.questionId] : [])));

  for (const row of rows) {
    if (row.kind === "fixed") {
      // A pinned version comes with the paper; otherwise the question as the device's banks hold it.
      const q = row.question?.id === row.questionId ? row.question : byId.get(row.questionId);
      if (!q) {
        if (!missingQuestions.includes(row.questionId)) missingQuestions.push(row.questionId);
        continue;
      }
      if (picked.has(q.id)) continue;
      picked.add(q.id);
      questions.push({ ...q, score: row.score });
      continue;
    }
    const bank = questionsByBank.get(row.classifyId);
    if (!bank) {
      if (!missing.includes(row.classifyId)) missing.push(row.classifyId);
      continue;
    }
    const pool = bank.filter(
      (q) => q.type === row.questionType && (row.difficulty === null || q.difficulty === row.difficulty) && !picked.has(q.id) && !fixedIds.has(q.id),
    );
    const unique = [...new Map(pool.map((q) => [q.id, q])).values()];
    // Partial Fisher-Yates: the first `count` places are a uniform sample without repeats.
    const take = Math.min(row.count, unique.length);
    for (let i = 0; i < take; i++) {
      const j = i + Math.min(unique.length - i - 1, Math.floor(random() * (unique.length - i)));
      [unique[i], unique[j]] = [unique[j]!, unique[i]!];
      const q = unique[i]!;
      picked.add(q.id);
      questions.push({ ...q, score: row.score });
    }
  }
  return { questions, missing, missingQuestions };
}

/** The sum of the questions' scores, rounded to cents. */
export function totalOf(questions: readonly Pick<ExamQuestion, "score">[]): number {
  return Math.round(questions.reduce((sum, q) => sum + q.score, 0) * 100) / 100;
}

export interface PaperSummary {
  title: string | null;
  totalScore: number | null;
  passScore: number | null;
}

/** What the screens show of a paper: the cached copy first, then the catalog's entry. */
export function paperSummary(
  paperId: number,
  cached: PaperDetail | null,
  catalogPapers: readonly { id: number; title: string; totalScore: number; passScore: number }[] | undefined,
): PaperSummary {
  if (cached && cached.paper.id === paperId) {
    return { title: cached.paper.title, totalScore: cached.paper.totalScore, passScore: cached.paper.passScore };
  }
  const entry = catalogPapers?.find((p) => p.id === paperId);
  return entry ? { title: entry.title, totalScore: entry.totalScore, passScore: entry.passScore } : { title: null, totalScore: null, passScore: null };
}

/** Every paper cached on this device (for listing papers offline), by id. */
export function listCachedPapers(storage: Storage | null = defaultStorage()): PaperDetail[] {
  const out: PaperDetail[] = [];
  try {
    if (!storage) return out;
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (!key?.startsWith(PAPER_CACHE_PREFIX)) continue;
      const paperId = Number(key.slice(PAPER_CACHE_PREFIX.length));
      const detail = Number.isSafeInteger(paperId) ? readCachedPaper(paperId, storage) : null;
      if (detail) out.push(detail);
    }
  } catch {
    // storage disabled
  }
  return out.sort((a, b) => a.paper.id - b.paper.id);
}
