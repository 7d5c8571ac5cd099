import type { MessageDescriptor } from "@lingui/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import { gradeAnswer } from "../../../shared/exam/grading.ts";
import { MAX_OPS_PER_SYNC, parseOp, rawOpId, type ExamState, type Op, type SyncResult } from "../../../shared/exam/sync.ts";
import type { Queryable } from "../../db/index.ts";
import { classifyDbError, loggableError } from "../../db/errors.ts";
import { ApiError } from "../../errors.ts";
import { requireMember } from "../../plugins/auth.ts";
import type { QuestionRow } from "./questions.ts";
import { applyMockSubmit } from "./attempts.ts";
import { isWithheld } from "./withheld.ts";
import { applyLessonProgress } from "../course/index.ts";

/** A payload the server refuses: the op is answered `rejected` with this message (shown to the member, translated). */
class RejectOp extends Error {
  constructor(readonly reason: MessageDescriptor) {
    super(reason.message ?? reason.id);
  }
}

/**
 * Applies one op for a member, exactly once (the op id is recorded in the same transaction).
 * The state rules are order-independent, so reordered or late deliveries end in the same state:
 * favourites and progress are last-writer-wins by (op time, op id); the wrong book counts every
 * wrong answer, and a question is out of it while its latest removal is not older than its
 * latest wrong answer.
 */
async function applyOp(tx: Queryable, userId: number, op: Op): Promise<"applied" | "duplicate"> {
  const recorded = await tx.query(
    "insert into sync_op (user_id, op_id, type, at) values ($1, $2, $3, $4) on conflict do nothing returning op_id",
    [userId, op.id, op.type, op.at],
  );
  if (recorded.rows.length === 0) return "duplicate";

  switch (op.type) {
    case "practice.answer": {
      const { questionId, bankId, answer } = op.payload;
      const { rows } = await tx.query<QuestionRow>(
        "select id, classify_id, type, stem, options, answer, analysis, difficulty, score from exam_question where id = $1 and status = 'enable'",
        [questionId],
      );
      const question = rows[0];
      if (!question || question.classify_id !== bankId) throw new RejectOp(msg`Unknown question`);
      // Grading it would tell (through the wrong book and practice figures) an exam-only answer.
      if (await isWithheld(tx, questionId)) throw new RejectOp(msg`This question is kept for an exam and cannot be practised now`);
      const graded = gradeAnswer({ type: question.type, answer: question.answer, score: Number(question.score) }, answer);
      await tx.query(
        "insert into exam_practice_answer (user_id, op_id, question_id, bank_id, answer, correct, score, at) values ($1, $2, $3, $4, $5, $6, $7, $8)",
        [userId, op.id, questionId, bankId, JSON.stringify(answer), graded.correct, graded.score, op.at],
      );
      if (graded.correct === false) {
        await tx.query(
          `insert into exam_wrong (user_id, question_id, count, last_time) values ($1, $2, 1, $3)
           on conflict (user_id, question_id) do update set count = exam_wrong.count + 1, last_time = greatest(exam_wrong.last_time, excluded.last_time)`,
          [userId, questionId, op.at],
        );
      }
      return "applied";
    }
    case "favourite.set": {
      await mustExist(tx, op.payload.questionId);
      await tx.query(
        `insert into exam_favourite (user_id, question_id, on_, at, op_id) values ($1, $2, $3, $4, $5)
         on conflict (user_id, question_id) do update set on_ = excluded.on_, at = excluded.at, op_id = excluded.op_id
         where (excluded.at, excluded.op_id collate "C") > (exam_favourite.at, exam_favourite.op_id collate "C")`,
        [userId, op.payload.questionId, op.payload.on, op.at, op.id],
      );
      return "applied";
    }
    case "wrong.remove": {
      await mustExist(tx, op.payload.questionId);
      await tx.query(
        `insert into exam_wrong (user_id, question_id, count, last_time, removed_at) values ($1, $2, 0, 0, $3)
         on conflict (user_id, question_id) do update set removed_at = greatest(exam_wrong.removed_at, excluded.removed_at)`,
        [userId, op.payload.questionId, op.at],
      );
      return "applied";
    }
    case "progress.set": {
      const bank = await tx.query("select 1 from exam_classify where id = $1", [op.payload.bankId]);
      if (bank.rows.length === 0) throw new RejectOp(msg`Unknown bank`);
      await tx.query(
        `insert into exam_progress (user_id, bank_id, position, at, op_id) values ($1, $2, $3, $4, $5)
         on conflict (user_id, bank_id) do update set position = excluded.position, at = excluded.at, op_id = excluded.op_id
         where (excluded.at, excluded.op_id collate "C") > (exam_progress.at, exam_progress.op_id collate "C")`,
        [userId, op.payload.bankId, op.payload.position, op.at, op.id],
      );
      return "applied";
    }
    case "attempt.submit": {
      const outcome = await applyMockSubmit(tx, userId, op.payload);
      if (outcome === "unknown-paper") throw new RejectOp(msg`Unknown paper`);
      if (outcome === "withheld-paper") throw new RejectOp(msg`This paper is kept for an official exam and cannot be taken as a mock exam`);
      return "applied";
    }
    case "lesson.progress": {
      const outcome = await applyLessonProgress(tx, userId, op);
      if (outcome === "unknown-lesson") throw new RejectOp(msg`Unknown lesson`);
      if (outcome === "not-enrolled") throw new RejectOp(msg`Not enrolled in this lesson's course (and the lesson is not a free preview)`);
      return "applied";
    }
  }
}

/**
 * Why an op that failed while being applied (its transaction rolled back) is rejected. A
 * refusal of the rules (RejectOp, ApiError) says why; anything else (a value the database
 * refused, a constraint, a bug) is logged with the op's id and type and the error's SQLSTATE or
 * stack, never the op's payload (the member's answers), and answered with a generic reason.
 * Such ops are recorded like every answered op, so the device never sends them again and one
 * bad op never holds back the ops behind it.
 */
function rejection(error: unknown, op: Op, req: FastifyRequest): string {
  if (error instanceof RejectOp) return req.t(error.reason);
  if (error instanceof ApiError) return req.t(error.msgDescriptor);
  req.log.error({ opId: op.id, opType: op.type, error: loggableError(error) }, "sync op failed");
  return req.t(msg`The server could not apply this change`);
}

async function mustExist(tx: Queryable, questionId: number): Promise<void> {
  const { rows } = await tx.query("select 1 from exam_question where id = $1", [questionId]);
  if (rows.length === 0) throw new RejectOp(msg`Unknown question`);
}

export async function examState(db: Queryable, userId: number): Promise<ExamState> {
  const favourites = await db.query<{ question_id: number }>("select question_id from exam_favourite where user_id = $1 and on_ order by question_id", [userId]);
  const wrong = await db.query<{ question_id: number; count: number; last_time: number }>(
    `select question_id, count, last_time from exam_wrong
     where user_id = $1 and count > 0 and not (removed_at >= last_time) order by question_id`,
    [userId],
  );
  const progress = await db.query<{ bank_id: number; position: number; at: number }>(
    "select bank_id, position, at from exam_progress where user_id = $1 order by bank_id",
    [userId],
  );
  return {
    favourites: favourites.rows.map((r) => r.question_id),
    wrong: wrong.rows.map((r) => ({ questionId: r.question_id, count: r.count, lastTime: Number(r.last_time) })),
    progress: progress.rows.map((r) => ({ bankId: r.bank_id, position: r.position, updatedAt: Number(r.at) })),
  };
}

/** `POST /api/exam/sync` and `GET /api/exam/state` (API.md "Offline sync"). */
export async function syncRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  // Each op is judged on its own, NUL and unpaired surrogates included (the envelope's
  // whole-request check would refuse the batch).
  app.post("/api/exam/sync", { config: { judgesTextPerItem: true } }, async (req, reply) => {
    const member = await requireMember(db, req);
    const ops = (req.body as { ops?: unknown } | null)?.ops;
    if (!Array.isArray(ops) || ops.length === 0 || ops.length > MAX_OPS_PER_SYNC) {
      throw new ApiError(msg`Send between 1 and ${MAX_OPS_PER_SYNC} operations at a time`);
    }
    const now = Date.now();
    const results: SyncResult[] = [];
    for (const raw of ops) {
      const parsed = parseOp(raw, now);
      if (!parsed.ok) {
        // Refused by the op schema: the same op is refused the same way every time.
        results.push({ id: rawOpId(raw), status: "rejected", msg: parsed.msg });
        continue;
      }
      const op = parsed.op;
      try {
        const status = await db.transaction((tx) => applyOp(tx, member.id, op));
        results.push({ id: op.id, status });
        continue;
      } catch (error) {
        // The database could not be reached (or gave up for a passing reason): the whole request
        // fails with 503 and the device sends the batch again later. Ops applied before this one
        // are committed and answer `duplicate` then; nothing is lost or applied twice.
        if (classifyDbError(error) === "unavailable") throw error;
        results.push({ id: op.id, status: "rejected", msg: rejection(error, op, req) });
      }
      // The op is answered, never retried: remember it so a replay is a duplicate.
      try {
        await db.query("insert into sync_op (user_id, op_id, type, at) values ($1, $2, $3, $4) on conflict do nothing", [member.id, op.id, op.type, op.at]);
      } catch (error) {
        if (classifyDbError(error) === "unavailable") throw error;
        // Not remembered: a replay runs the op again (and is answered again); the batch goes on.
        req.log.error({ opId: op.id, opType: op.type, error: loggableError(error) }, "sync op rejection not recorded");
      }
    }
    return reply.success({ results });
  });

  app.get("/api/exam/state", async (req, reply) => {
    const member = await requireMember(db, req);
    return reply.success(await examState(db, member.id));
  });
}
