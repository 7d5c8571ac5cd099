import { PassThrough } from "node:stream";
import { msg } from "@lingui/core/macro";
import type { FastifyReply } from "fastify";
import type { RoomResults } from "../../../shared/admin/rooms.ts";
import { NO_PAGE_LEAVES } from "../../../shared/exam/pageLeaves.ts";
import { wallClockIn } from "../../../shared/time.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { fillOutcomes, type Outcomes } from "../../modules/exam/attempts/outcomes.ts";
import { satStems } from "../../modules/exam/attempts/snapshot.ts";
import type { CrudContext } from "../resource.ts";
import { loadExcel } from "./excel.ts";
import { leavesOfRoom, officialAttemptsOfRoom, pendingMarksOfRoom, resultsRoom, type ResultsAttempt } from "./roomResults.repository.ts";

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

/**
 * Per question graded in these attempts: the members who sat it and those right in any of their
 * attempts (each member counted once, with their best result), and the first attempt (lowest id)
 * that sat it, whose snapshot gives its stem. Attempts without outcomes (no snapshot) count nowhere.
 */
function itemCounts(attempts: readonly { id: number; userId: number; outcomes: Outcomes | undefined }[]) {
  const counts = new Map<number, { attempts: number; correct: number; first: number }>();
  /** One member: the questions they sat (each with the first attempt that sat it) and those they got right in any attempt. */
  const add = (graded: Iterable<number>, firstOf: (qid: number) => number, right: Iterable<number>) => {
    for (const qid of graded) {
      const c = counts.get(qid);
      if (c) {
        c.attempts++;
        c.first = Math.min(c.first, firstOf(qid));
      } else counts.set(qid, { attempts: 1, correct: 0, first: firstOf(qid) });
    }
    for (const qid of right) {
      const c = counts.get(qid);
      if (c) c.correct++;
    }
  };
  // A member who sat once (most of them) counts as that attempt; one who sat more, once over all of them.
  const byMember = new Map<number, { id: number; outcomes: Outcomes }[]>();
  for (const { id, userId, outcomes } of attempts) {
    if (!outcomes) continue;
    const sat = byMember.get(userId);
    if (sat) sat.push({ id, outcomes });
    else byMember.set(userId, [{ id, outcomes }]);
  }
  for (const sat of byMember.values()) {
    if (sat.length === 1) {
      const { id, outcomes } = sat[0]!;
      add(outcomes.graded, () => id, outcomes.right);
      continue;
    }
    const first = new Map<number, number>();
    for (const { id, outcomes } of sat) for (const qid of outcomes.graded) first.set(qid, Math.min(first.get(qid) ?? Infinity, id));
    add(first.keys(), (qid) => first.get(qid)!, new Set(sat.flatMap((a) => a.outcomes.right)));
  }
  return counts;
}

export async function roomResults(db: Queryable, id: number): Promise<RoomResults> {
  const room = await loadRoom(db, id);
  const attempts: ResultsAttempt[] = await officialAttemptsOfRoom(db, id, MAX_ATTEMPTS);
  const pendingMarks = await pendingMarksOfRoom(db, id);
  // How many times and how long each member left the exam page (modules/exam/attempts/leaves.ts).
  const leaves = await leavesOfRoom(db, id);
  const finished = attempts.filter((a) => a.status !== "open");
  // Item analysis: each attempt as it was graded against what it sat (snapshot.ts), markers'
  // scores counted, kept per question by every grading (outcomes.ts); an attempt graded before
  // they were kept is graded here once, as before, and kept.
  const filled = await fillOutcomes(
    db,
    finished.filter((a) => a.outcomes === null).map((a) => a.id),
  );
  const counts = itemCounts(finished.map((a) => ({ id: a.id, userId: a.user_id, outcomes: a.outcomes ?? filled.get(a.id) })));
  const questions = await satStems(db, new Map([...counts].map(([qid, c]) => [qid, c.first])));
  const items = [...counts]
    .map(([questionId, { attempts, correct }]) => {
      const q = questions.get(questionId);
      return { questionId, stem: q?.stem ?? "", type: q?.type ?? "", attempts, correct, share: attempts ? Math.round((correct / attempts) * 10_000) / 10_000 : 0 };
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
