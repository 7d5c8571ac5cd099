import { PassThrough } from "node:stream";
import { msg } from "@lingui/core/macro";
import type { FastifyReply } from "fastify";
import type { RoomResults } from "../../../shared/admin/rooms.ts";
import { NO_PAGE_LEAVES } from "../../../shared/exam/pageLeaves.ts";
import { wallClockIn } from "../../../shared/time.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { gradeAttempt } from "../../modules/exam/attempts/grading.ts";
import { leaveSummaries } from "../../modules/exam/attempts/leaves.ts";
import { gradingGroupsOf, satStems } from "../../modules/exam/attempts/snapshot.ts";
import type { CrudContext } from "../resource.ts";
import { loadExcel } from "./excel.ts";
import { marksOfAttempts, officialAttemptsOfRoom, resultsRoom, type ResultsAttempt } from "./roomResults.repository.ts";

/**
 * Results of an exam room (`GET /admin/exam/room/results?id=`, `export?id=` as .xlsx): every
 * attempt with its member, score, time used, status and page leaves; the score distribution of the finished
 * attempts; and item analysis: per question, the share of the members who sat it that got it
 * right (graded as the attempt is graded, markers' scores included).
 */

/** Most attempts one results page reads (a room of a whole school). */
const MAX_ATTEMPTS = 20_000;
/** Times in the workbook as the back office writes them (2026-11-27 17:45:46). */
const DATE_TIME_FORMAT = "yyyy-mm-dd hh:mm:ss";

async function loadRoom(db: Queryable, id: number) {
  const room = await resultsRoom(db, id);
  if (!room) throw new ApiError(msg`This exam room does not exist`);
  return room;
}

export async function roomResults(db: Queryable, id: number): Promise<RoomResults> {
  const room = await loadRoom(db, id);
  const attempts: ResultsAttempt[] = await officialAttemptsOfRoom(db, id, MAX_ATTEMPTS);
  const ids = attempts.map((a) => a.id);
  const markRows = ids.length ? await marksOfAttempts(db, ids) : [];
  const marks = new Map<number, Map<number, number>>();
  const pendingMarks = new Map<number, number>();
  for (const m of markRows) {
    if (m.status === "marked") marks.set(m.attempt_id, (marks.get(m.attempt_id) ?? new Map<number, number>()).set(m.question_id, Number(m.score)));
    else pendingMarks.set(m.attempt_id, (pendingMarks.get(m.attempt_id) ?? 0) + 1);
  }
  // How many times and how long each member left the exam page (modules/exam/attempts/leaves.ts).
  const leaves = await leaveSummaries(db, ids);
  const finished = attempts.filter((a) => a.status !== "open");
  // Each attempt graded against what it sat (snapshot.ts), never the paper's or questions' current
  // rows; the attempts that sat the same questions are read from the database once.
  const groups = await gradingGroupsOf(db, finished.map((a) => a.id));
  const byId = new Map(finished.map((a) => [a.id, a]));
  // Item analysis: each member counted once per question (their best result of it); each
  // question's stem as the first attempt (lowest id) that sat it was given it.
  const best = new Map<number, Map<number, boolean>>();
  const firstSat = new Map<number, number>();
  for (const group of groups) {
    for (const qid of group.ids) firstSat.set(qid, Math.min(firstSat.get(qid) ?? Infinity, group.attemptIds[0]!));
    for (const attemptId of group.attemptIds) {
      const a = byId.get(attemptId)!;
      const graded = gradeAttempt(group.questions, a.answers, { partialCredit: group.paper.partialCredit, passScore: group.paper.passScore }, group.ids, marks.get(a.id));
      for (const [qid, result] of Object.entries(graded.results)) {
        const members = best.get(Number(qid)) ?? new Map<number, boolean>();
        members.set(a.user_id, members.get(a.user_id) === true || result.correct === true);
        best.set(Number(qid), members);
      }
    }
  }
  const questions = await satStems(db, firstSat);
  const items = [...best.entries()]
    .map(([questionId, members]) => {
      const correct = [...members.values()].filter(Boolean).length;
      const q = questions.get(questionId);
      return { questionId, stem: q?.stem ?? "", type: q?.type ?? "", attempts: members.size, correct, share: members.size ? Math.round((correct / members.size) * 10_000) / 10_000 : 0 };
    })
    .sort((x, y) => x.questionId - y.questionId);

  const total = Number(room.total_score);
  const scores = finished.map((a) => Number(a.score ?? 0));
  const bands = 10;
  const width = total > 0 ? total / bands : 1;
  const distribution = Array.from({ length: bands }, (_, i) => ({ from: Math.round(i * width * 100) / 100, to: Math.round((i + 1) * width * 100) / 100, count: 0 }));
  for (const s of scores) distribution[Math.min(bands - 1, Math.max(0, Math.floor(s / width)))]!.count++;

  return {
    room: { id: room.id, title: room.title, paperTitle: room.paper_title, totalScore: total, passScore: Number(room.pass_score) },
    attempts: attempts.map((a) => ({
      id: a.id,
      userId: a.user_id,
      username: a.username,
      nickname: a.nickname ?? "",
      score: a.score === null ? null : Number(a.score),
      passed: a.passed,
      status: a.status,
      startedAt: Number(a.started_at),
      submittedAt: a.submitted_at === null ? null : Number(a.submitted_at),
      timeUsed: a.submitted_at === null ? null : Math.max(0, Number(a.submitted_at) - Number(a.started_at)),
      pendingMarks: pendingMarks.get(a.id) ?? 0,
      pageLeaves: leaves.get(a.id) ?? NO_PAGE_LEAVES,
    })),
    summary: {
      attempts: attempts.length,
      members: new Set(attempts.map((a) => a.user_id)).size,
      finished: finished.length,
      passed: finished.filter((a) => a.passed === true).length,
      average: scores.length ? Math.round((scores.reduce((s, x) => s + x, 0) / scores.length) * 100) / 100 : null,
      highest: scores.length ? Math.max(...scores) : null,
      lowest: scores.length ? Math.min(...scores) : null,
    },
    distribution,
    items,
  };
}

/**
 * The room's attempts and item analysis as an .xlsx workbook, written with exceljs's streaming
 * writer; times are date cells showing the reader's clock (`tz`) as the back office writes them.
 */
export async function exportRoomResults(ctx: CrudContext, { id, tz }: { id: number; tz?: string | undefined }, reply: FastifyReply): Promise<unknown> {
  const results = await roomResults(ctx.tx, id);
  const t = ctx.req.t;
  const ExcelJS = await loadExcel();
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  reply
    .header("content-type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    .header("content-disposition", `attachment; filename="room-${results.room.id}-results.xlsx"`)
    .header("cache-control", "no-store");
  const write = async () => {
    const sheet = workbook.addWorksheet(t(msg`Attempts`));
    sheet.columns = [
      { header: t(msg`Attempt`), key: "id", width: 10 },
      { header: t(msg`Username`), key: "username", width: 20 },
      { header: t(msg`Nickname`), key: "nickname", width: 20 },
      { header: t(msg`Score`), key: "score", width: 10 },
      { header: t(msg`Passed`), key: "passed", width: 10 },
      { header: t(msg`Status`), key: "status", width: 12 },
      { header: t(msg`Started`), key: "startedAt", width: 20, style: { numFmt: DATE_TIME_FORMAT } },
      { header: t(msg`Submitted at`), key: "submittedAt", width: 20, style: { numFmt: DATE_TIME_FORMAT } },
      { header: t(msg`Time used (s)`), key: "timeUsed", width: 14 },
      { header: t(msg`Waiting for marking`), key: "pendingMarks", width: 18 },
      { header: t(msg`Page leaves`), key: "leaves", width: 12 },
      { header: t(msg`Time away from the page (s)`), key: "awaySeconds", width: 16 },
    ];
    const wallClock = wallClockIn(tz);
    const date = (s: number | null) => (s === null ? null : wallClock(s));
    for (const a of results.attempts) {
      sheet
        .addRow({
          ...a,
          // Text from members is written as text: a leading "=" never becomes a formula.
          username: a.username,
          nickname: a.nickname,
          passed: a.passed === null ? "" : a.passed ? t(msg`Yes`) : t(msg`No`),
          status: a.status === "open" ? t(msg`In progress`) : a.status === "submitted" ? t(msg`Submitted`) : t(msg`Time up`),
          startedAt: date(a.startedAt),
          submittedAt: date(a.submittedAt),
          leaves: a.pageLeaves.count,
          awaySeconds: Math.round(a.pageLeaves.totalMs / 1000),
        })
        .commit();
    }
    sheet.commit();
    const items = workbook.addWorksheet(t(msg`Item analysis`));
    items.columns = [
      { header: t(msg`Question`), key: "questionId", width: 10 },
      { header: t(msg`Stem`), key: "stem", width: 60 },
      { header: t(msg`Members answering`), key: "attempts", width: 12 },
      { header: t(msg`Right`), key: "correct", width: 10 },
      { header: t(msg`Share right`), key: "share", width: 12 },
    ];
    for (const item of results.items) items.addRow({ ...item, stem: item.stem.replace(/<[^>]*>/g, "").slice(0, 500) }).commit();
    items.commit();
    await workbook.commit();
  };
  void write().catch((error: unknown) => {
    ctx.req.log.error({ err: error }, "room results export failed");
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply.send(out);
}
