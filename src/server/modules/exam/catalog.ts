import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ClassifyNode, PracticeStats } from "../../../shared/exam/catalog.ts";
import { dbIdParam } from "../../../shared/schema.ts";
import { ApiError } from "../../errors.ts";
import { BANK_VERSION_SQL, PRACTISABLE, bankQuestions, bankVersion, presentQuestion } from "./questions.ts";
import { paperVisibleSql, visibleSql } from "../org/visibility.ts";
import { paperWithheldSql } from "./withheld.ts";
import { extrasSql } from "./overrides.ts";

interface ClassifyRow {
  id: number;
  pid: number;
  title: string;
  title_en: string;
  kind: "practice" | "exam";
  question_count: number;
  version: string;
}

/**
 * `GET /api/exam/catalog` and `GET /api/exam/bank?id=` (a bank for offline use, with an ETag).
 * Neither ever carries exam-only content: exam-only banks are not listed nor downloadable,
 * withheld questions are left out of practice banks, papers kept for official exams are not
 * offered as mock papers (see withheld.ts). Banks, papers and rooms are those open to the member
 * (modules/org/visibility.ts).
 */
export async function catalogRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const memberOnly = { auth: "member" } as const;

  api.get("/api/exam/catalog", { config: memberOnly }, async (req, reply) => {
    const member = req.member!;
    // Withheld questions (exam-only content) are not counted; exam-only banks are not listed.
    const { rows } = await db.query<ClassifyRow & { open: boolean }>(
      `select c.id, c.pid, c.title, c.title_en, c.kind, ${visibleSql("bank", "c.id", "$1")} as open,
              count(q.id)::int as question_count,
              ${BANK_VERSION_SQL} as version
       from exam_classify c left join exam_question q on q.classify_id = c.id and q.status = 'enable' and ${PRACTISABLE}
       where c.status = 'enable' group by c.id order by c.weigh desc, c.id`,
      [member.id],
    );
    const nodes = new Map<number, ClassifyNode>();
    const pidOf = new Map(rows.map((r) => [r.id, r.pid]));
    // Exam-only banks and banks not open to the member are not listed.
    const hidden = new Set(rows.filter((r) => r.kind === "exam" || !r.open).map((r) => r.id));
    for (const r of rows) {
      if (hidden.has(r.id)) continue;
      // A practice node under an exam-only one hangs from the nearest listed ancestor.
      let pid = r.pid;
      for (let hops = 0; hidden.has(pid) && hops < rows.length; hops++) pid = pidOf.get(pid) ?? 0;
      nodes.set(r.id, { id: r.id, pid, title: req.lang === "en" && r.title_en ? r.title_en : r.title, questionCount: r.question_count, version: r.version, children: [] });
    }
    const tree: ClassifyNode[] = [];
    for (const node of nodes.values()) (nodes.get(node.pid)?.children ?? tree).push(node);

    const papers = await db.query<{ id: number; title: string; total_score: number; pass_score: number; duration: number }>(
      // Papers kept for official exams are not offered as mock papers.
      `select p.id, p.title, p.total_score, p.pass_score, p.duration from exam_paper p
       where p.status = 'enable' and not ${paperWithheldSql("p.id")} and ${paperVisibleSql("p.id", "$1")} order by p.id`,
      [member.id],
    );
    const now = Math.floor(Date.now() / 1000);
    // What the member's introduction to a room shows before entering (never the answers): the
    // paper's questions and points, the room's pass mark, the attempts left, whether faces are checked,
    // the extra time and attempts the member's overrides give.
    const rooms = await db.query<{
      id: number; title: string; paper_id: number; start_time: number; end_time: number; duration: number; attempts_allowed: number;
      pass_score: number | string; total_score: number | string | null; question_count: number; attempts_used: number; face_check: boolean;
      extra_minutes: number; extra_attempts: number;
    }>(
      `select r.id, r.title, r.paper_id, r.start_time, r.end_time, r.duration, r.attempts_allowed, r.pass_score, p.total_score,
              coalesce((select sum(case when pr.kind = 'fixed' then 1 else pr.count end) from exam_paper_row pr where pr.paper_id = r.paper_id), 0)::int as question_count,
              (select count(*) from exam_attempt a where a.room_id = r.id and a.user_id = $3)::int as attempts_used,
              exists (select 1 from face_rule f where f.id = r.face_rule_id and f.status = 'enable') as face_check,
              ${extrasSql("r.id", "$3", "$2::int")}
       from exam_room r left join exam_paper p on p.id = r.paper_id
       where r.status = 'enable' and r.end_time > $1 and (r.user_group_id is null or r.user_group_id = $2) and ${visibleSql("room", "r.id", "$3")} order by r.start_time`,
      [now, member.group_id, member.id],
    );
    return reply.success({
      classify: tree,
      papers: papers.rows.map((p) => ({ id: p.id, title: p.title, totalScore: p.total_score, passScore: p.pass_score, duration: p.duration })),
      rooms: rooms.rows.map((r) => ({
        id: r.id,
        title: r.title,
        paperId: r.paper_id,
        startTime: Number(r.start_time),
        endTime: Number(r.end_time),
        // The member's overrides (overrides.ts) are included: the time a start gives them, the attempts they have.
        duration: r.duration + r.extra_minutes * 60,
        extraMinutes: r.extra_minutes,
        attemptsAllowed: r.attempts_allowed + r.extra_attempts,
        extraAttempts: r.extra_attempts,
        attemptsLeft: Math.max(0, r.attempts_allowed + r.extra_attempts - r.attempts_used),
        questionCount: r.question_count,
        totalScore: Number(r.total_score ?? 0),
        passScore: Number(r.pass_score),
        faceCheck: r.face_check,
      })),
    });
  });

  api.get("/api/exam/bank", { config: memberOnly, schema: { querystring: z.object({ id: dbIdParam }) } }, async (req, reply) => {
    const bank = await db.query<{ id: number; title: string; title_en: string; kind: string }>(
      `select c.id, c.title, c.title_en, c.kind from exam_classify c where c.id = $1 and c.status = 'enable' and ${visibleSql("bank", "c.id", "$2")}`,
      [req.query.id, req.member!.id],
    );
    const row = bank.rows[0];
    if (!row) throw new ApiError(msg`This question bank does not exist`);
    if (row.kind === "exam") throw new ApiError(msg`This question bank is kept for exams and cannot be practised`);
    const { count, version } = await bankVersion(db, row.id);
    const etag = `"bank-${row.id}-${version}-${req.lang}"`;
    reply.header("etag", etag).header("cache-control", "private, no-cache");
    if (req.headers["if-none-match"] === etag) return reply.code(304).send();
    const questions = await bankQuestions(db, row.id);
    return reply.success({
      bank: { id: row.id, title: req.lang === "en" && row.title_en ? row.title_en : row.title, version, questionCount: count },
      // Practice banks carry their answers (practice shows them anyway); withheld questions are left out.
      questions: questions.map((qr) => presentQuestion(qr, true)),
    });
  });

  // The member's practice on the server, per bank: every answer counts (the same question
  // answered twice is two answers), graded by the server.
  api.get("/api/exam/practiceStats", { config: memberOnly }, async (req, reply) => {
    const member = req.member!;
    const { rows } = await db.query<{ bank_id: number; answers: number; questions: number; correct: number; wrong: number; last_at: string }>(
      `select bank_id, count(*)::int as answers, count(distinct question_id)::int as questions,
              count(*) filter (where correct is true)::int as correct, count(*) filter (where correct is false)::int as wrong,
              max(at) as last_at
       from exam_practice_answer where user_id = $1 group by bank_id order by bank_id`,
      [member.id],
    );
    const banks: PracticeStats["banks"] = rows.map((r) => ({
      bankId: r.bank_id,
      answers: r.answers,
      questions: r.questions,
      correct: r.correct,
      wrong: r.wrong,
      lastAnsweredAt: Math.floor(Number(r.last_at) / 1000),
    }));
    return reply.success({ banks });
  });
}
