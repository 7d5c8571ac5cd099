import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ClassifyNode, PracticeStats } from "../../../shared/exam/catalog.ts";
import { dbIdParam } from "../../../shared/schema.ts";
import { ApiError } from "../../errors.ts";
import { bankVersion, presentQuestion } from "./questions.ts";
import { bankQuestions, catalogBanks, memberRooms, mockPapers, openBank, paperBanks, practiceStatsRows } from "./repository.ts";

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
    const rows = await catalogBanks(db, member.id);
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

    // Papers kept for official exams are not offered as mock papers.
    const papers = await mockPapers(db, member.id);
    const banksOf = await paperBanks(db, papers.map((p) => p.id));
    const now = Math.floor(Date.now() / 1000);
    // What the member's introduction to a room shows before entering (never the answers): the
    // paper's questions and points, the room's pass mark, the attempts left, whether faces are checked,
    // the extra time and attempts the member's overrides give.
    const rooms = await memberRooms(db, now, member.group_id, member.id);
    return reply.success({
      classify: tree,
      papers: papers.map((p) => ({ id: p.id, title: p.title, totalScore: p.total_score, passScore: p.pass_score, duration: p.duration, banks: banksOf.get(p.id) ?? [] })),
      rooms: rooms.map((r) => ({
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
    const row = await openBank(db, req.query.id, req.member!.id);
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
    const rows = await practiceStatsRows(db, member.id);
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
