import type { FastifyInstance } from "fastify";
import { addAnswer, addQuestion, emptyTopic } from "../../../shared/exam/mastery.ts";
import { MASTERY_WEEKS, estimateSeconds, weekOf, type CardState } from "../../../shared/exam/review.ts";
import { finishMastery, type DueCard, type DueList, type Mastery, type MasteryAcc } from "../../../shared/sync/review.ts";
import { now } from "../../clock.ts";
import type { Queryable } from "../../db/index.ts";
import { practiceAnswersByTopic, reviewQueue, touchedQuestions } from "./repository.ts";

/**
 * Spaced review read on the server: the member's due list across banks and mastery by
 * topic (bank) and question type. Scheduling only, never a question's content: the questions
 * come from the banks on the device (`/api/exam/bank`, as practice) or `/api/exam/questions`.
 * The cards themselves are written by the `review.answer` op (src/server/sync/handlers/review.ts).
 */

export async function dueList(db: Queryable, userId: number, now: number): Promise<DueList> {
  const rows = await reviewQueue(db, userId);
  const due: DueCard[] = rows
    .filter((r) => !r.reps || Number(r.due) <= now)
    .map((r) => ({
      questionId: r.question_id,
      bankId: r.classify_id,
      type: r.type,
      due: r.reps ? Number(r.due) : 0,
      reps: r.reps ?? 0,
      lapses: r.lapses ?? 0,
      source: (r.wrong && r.favourite ? "both" : r.wrong ? "wrong" : "favourite") as DueCard["source"],
    }))
    .sort((a, b) => a.due - b.due || a.questionId - b.questionId);
  return { now, queued: rows.length, due, estimateSeconds: estimateSeconds(due.map((d) => d.type)) };
}

const WEEKS = MASTERY_WEEKS;
const DAY = 86_400_000;
export { weekOf };

export async function mastery(db: Queryable, userId: number, now: number, lang: string): Promise<Mastery> {
  // Per question the member answered or reviewed: its topic, its latest graded practice result, its card
  // (the definitions of mastery and correct rate: src/shared/exam/mastery.ts).
  const rows = await touchedQuestions(db, userId);
  const since = now - WEEKS * 7 * DAY;
  const answers = await practiceAnswersByTopic(db, userId);
  const due = await dueList(db, userId, now);

  const topics = new Map<string, MasteryAcc>();
  const topicOf = (bankId: number, type: string, title: string) => {
    const key = `${bankId}:${type}`;
    let topic = topics.get(key);
    if (!topic) {
      topic = emptyTopic(bankId, title, type);
      topics.set(key, topic);
    }
    return topic;
  };
  for (const r of rows) {
    const topic = topicOf(r.classify_id, r.type, lang === "en" && r.title_en ? r.title_en : r.title);
    const card: CardState | null = r.reps
      ? {
          questionId: r.question_id,
          due: Number(r.due),
          stability: Number(r.stability),
          difficulty: Number(r.difficulty),
          state: Number(r.state),
          reps: r.reps,
          lapses: Number(r.lapses),
          scheduledDays: Number(r.scheduled_days),
          learningSteps: Number(r.learning_steps),
          lastReview: r.last_review === null ? null : Number(r.last_review),
          streak: 0,
          streakSince: null,
        }
      : null;
    addQuestion(topic, r.latest_correct === null || r.latest_at === null ? null : { correct: r.latest_correct, at: Number(r.latest_at) }, card, now);
  }
  for (const a of answers) {
    const topic = topics.get(`${a.classify_id}:${a.type}`);
    if (topic) addAnswer(topic, a.correct, Number(a.at), since);
  }
  for (const d of due.due) {
    const topic = topics.get(`${d.bankId}:${d.type}`);
    if (topic) topic.dueReviews += 1;
  }
  return {
    topics: finishMastery(topics.values()),
  };
}

/** `GET /api/exam/review/due` and `GET /api/exam/review/mastery`: the member's own, nobody else's. */
export async function reviewRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  app.get("/api/exam/review/due", { config: { auth: "member" } }, async (req, reply) => {
    return reply.success(await dueList(db, req.member!.id, now()));
  });
  app.get("/api/exam/review/mastery", { config: { auth: "member" } }, async (req, reply) => {
    return reply.success(await mastery(db, req.member!.id, now(), req.lang));
  });
}
