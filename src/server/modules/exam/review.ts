import type { FastifyInstance } from "fastify";
import { MASTERY_WEEKS, estimateSeconds, retrievability, weekOf, type CardState } from "../../../shared/exam/review.ts";
import { finishMastery, type DueCard, type DueList, type Mastery, type MasteryAcc } from "../../../shared/sync/review.ts";
import { now } from "../../clock.ts";
import type { Queryable } from "../../db/index.ts";
import { visibleSql } from "../org/visibility.ts";

/**
 * Spaced review read on the server: the member's due list across banks and mastery by
 * topic (bank) and question type. Scheduling only, never a question's content: the questions
 * come from the banks on the device (`/api/exam/bank`, as practice) or `/api/exam/questions`.
 * The cards themselves are written by the `review.answer` op (src/server/sync/handlers/review.ts).
 */

/** The review queue: the wrong book (as the exam state has it) and the favourites, of open banks. */
const QUEUE_SQL = `
  with queue as (
    select question_id, bool_or(src = 'wrong') as wrong, bool_or(src = 'favourite') as favourite from (
      select question_id, 'wrong' as src from exam_wrong where user_id = $1 and count > 0 and not (removed_at >= last_time)
      union all
      select question_id, 'favourite' as src from exam_favourite where user_id = $1 and on_
    ) s group by question_id
  )
  select q.id as question_id, q.classify_id, q.type, queue.wrong, queue.favourite,
         c.due, c.reps, c.lapses
  from queue
  join exam_question q on q.id = queue.question_id and q.status = 'enable'
  join exam_classify b on b.id = q.classify_id and b.status = 'enable'
  left join exam_review_card c on c.user_id = $1 and c.question_id = q.id
  where ${visibleSql("bank", "q.classify_id", "$1")}
    and not exists (select 1 from exam_withheld_question w where w.question_id = q.id)`;

interface QueueRow {
  question_id: number;
  classify_id: number;
  type: string;
  wrong: boolean;
  favourite: boolean;
  due: string | number | null;
  reps: number | null;
  lapses: number | null;
}

export async function dueList(db: Queryable, userId: number, now: number): Promise<DueList> {
  const { rows } = await db.query<QueueRow>(QUEUE_SQL, [userId]);
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
  // Per question the member answered or reviewed: its topic, its latest practice result, its card.
  const { rows } = await db.query<{
    question_id: number;
    classify_id: number;
    title: string;
    title_en: string;
    type: string;
    latest_correct: boolean | null;
    due: string | number | null;
    stability: number | null;
    difficulty: number | null;
    state: number | null;
    reps: number | null;
    lapses: number | null;
    scheduled_days: number | null;
    learning_steps: number | null;
    last_review: string | number | null;
  }>(
    `with touched as (
       select question_id from exam_practice_answer where user_id = $1
       union select question_id from exam_review_log where user_id = $1
     )
     select q.id as question_id, q.classify_id, b.title, b.title_en, q.type,
            (select a.correct from exam_practice_answer a where a.user_id = $1 and a.question_id = q.id order by a.at desc, a.id desc limit 1) as latest_correct,
            c.due, c.stability, c.difficulty, c.state, c.reps, c.lapses, c.scheduled_days, c.learning_steps, c.last_review
     from touched t
     join exam_question q on q.id = t.question_id
     join exam_classify b on b.id = q.classify_id and b.status = 'enable'
     left join exam_review_card c on c.user_id = $1 and c.question_id = q.id
     where ${visibleSql("bank", "q.classify_id", "$1")}`,
    [userId],
  );
  const since = now - WEEKS * 7 * DAY;
  const answers = await db.query<{ classify_id: number; type: string; correct: boolean | null; at: string | number }>(
    `select q.classify_id, q.type, a.correct, a.at from exam_practice_answer a join exam_question q on q.id = a.question_id
     where a.user_id = $1`,
    [userId],
  );
  const due = await dueList(db, userId, now);

  const topics = new Map<string, MasteryAcc>();
  const topicOf = (bankId: number, type: string, title: string) => {
    const key = `${bankId}:${type}`;
    let topic = topics.get(key);
    if (!topic) {
      topic = { bankId, title, type, answered: 0, correct: 0, dueReviews: 0, mastery: null, weeks: [], sum: 0, count: 0, weekMap: new Map() };
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
    const recall = card ? retrievability(card, now) : null;
    topic.sum += recall ?? (r.latest_correct === true ? 1 : 0);
    topic.count += 1;
  }
  for (const a of answers.rows) {
    const topic = topics.get(`${a.classify_id}:${a.type}`);
    if (!topic) continue;
    topic.answered += 1;
    if (a.correct === true) topic.correct += 1;
    const at = Number(a.at);
    if (at < since) continue;
    const week = weekOf(at);
    const entry = topic.weekMap.get(week) ?? { answered: 0, correct: 0 };
    entry.answered += 1;
    if (a.correct === true) entry.correct += 1;
    topic.weekMap.set(week, entry);
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
