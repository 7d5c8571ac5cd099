import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardFigures } from "../../src/shared/admin/members.ts";
import { PROGRESS_EXPORT } from "../../src/server/modules/report/service.ts";
import type { ProgressReport, Transcript } from "../../src/shared/reports.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import {
  assign,
  createAdmin,
  createAttempt,
  createBankWithQuestions,
  createClassroom,
  createCompany,
  createCourse,
  createLessonProgress,
  createMember,
  createPaper,
  createRoom,
  type TestAdmin,
  type TestMember,
} from "../helpers/factories.ts";

/**
 * Reports (modules/report): the numbers a transcript and a progress report show are the ones the
 * attempts and lesson progress made here say; a company admin reaches their companies' members
 * only; the routes need their rules; hostile filters are refused with code 0.
 */

let t: TestApp;
const { adminCall, memberCall } = callers(() => t.app);
const DAY = 86_400;
const now = Math.floor(Date.now() / 1000);
let admin: TestAdmin;
let companyAdmin: TestAdmin;
let nobody: TestAdmin;
let company: number;
let otherCompany: number;
let classroom: number;
let otherClassroom: number;
let room: number;
let endedRoom: number;
let dueRoom: number;
let course: { id: number; lessonIds: number[] };
const m = {} as Record<"passer" | "failer" | "sitting" | "idle" | "outsider" | "stranger", TestMember>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  company = await createCompany(db);
  otherCompany = await createCompany(db);
  for (const name of ["passer", "failer", "sitting", "idle", "outsider"] as const) m[name] = await createMember(db, { companyId: company });
  m.stranger = await createMember(db, { companyId: otherCompany, username: "=HYPERLINK(1)" });
  classroom = await createClassroom(db, { companyId: company, memberIds: [m.passer.id, m.failer.id, m.sitting.id, m.idle.id, m.stranger.id] });
  otherClassroom = await createClassroom(db, { companyId: otherCompany, memberIds: [m.stranger.id] });
  const bank = await createBankWithQuestions(db, 2, { kind: "exam" });
  const paper = await createPaper(db, { rows: [{ fixed: bank.questionIds[0]!, score: 100 }] });
  room = await createRoom(db, paper, { attemptsAllowed: 3, passScore: 60, endTime: now + 30 * DAY });
  endedRoom = await createRoom(db, paper, { startTime: now - 10 * DAY, endTime: now - DAY });
  dueRoom = await createRoom(db, paper, { endTime: now + 3 * DAY });
  for (const r of [room, endedRoom, dueRoom]) await assign(db, "room", r, { classrooms: [classroom] });
  await db.query("update exam_room set company_id = $1 where id = any($2::int[])", [company, [room, endedRoom, dueRoom]]);
  course = await createCourse(db, { lessons: [{}, {}] });
  await assign(db, "course", course.id, { classrooms: [classroom] });

  // room: passer failed then passed; failer failed twice; sitting has an open attempt; idle nothing;
  // outsider (not in the classroom) passed: never counted; stranger failed once.
  await createAttempt(db, room, m.passer.id, { score: 40, passed: false, startedAt: now - 3 * DAY });
  await createAttempt(db, room, m.passer.id, { score: 85.5, passed: true, startedAt: now - 2 * DAY });
  await createAttempt(db, room, m.failer.id, { score: 20, passed: false });
  await createAttempt(db, room, m.failer.id, { score: 50, passed: false, status: "expired" });
  await createAttempt(db, room, m.sitting.id, { status: "open" });
  await createAttempt(db, room, m.outsider.id, { score: 90, passed: true });
  await createAttempt(db, room, m.stranger.id, { score: 10, passed: false });
  await createAttempt(db, endedRoom, m.passer.id, { score: 70, passed: true, startedAt: now - 5 * DAY });
  await createAttempt(db, dueRoom, m.passer.id, { score: 70, passed: true });
  // course: passer both lessons, failer one of two, sitting opened one.
  await createLessonProgress(db, m.passer.id, course.lessonIds[0]!, { completed: true, at: now - 4 * DAY });
  await createLessonProgress(db, m.passer.id, course.lessonIds[1]!, { completed: true, at: now - DAY });
  await createLessonProgress(db, m.failer.id, course.lessonIds[0]!, { completed: true });
  await createLessonProgress(db, m.sitting.id, course.lessonIds[1]!, { completed: false });
  // review: today, yesterday and four days ago: a streak of 2.
  const q = bank.questionIds[1]!;
  for (const [i, daysAgo] of [0, 1, 4].entries()) {
    await db.query("insert into exam_review_log (user_id, op_id, question_id, correct, retention, at) values ($1, $2, $3, true, 0.9, $4)", [m.passer.id, `r${i}`, q, (now - daysAgo * DAY) * 1000]);
  }

  admin = await createAdmin(db);
  companyAdmin = await createAdmin(db, { companyId: company });
  nobody = await createAdmin(db, { isSuper: false });
  // The company admin's group holds the report rules.
  const { rows } = await db.query<{ id: number }>(
    "insert into admin_group (pid, name, rules) values (0, 'reporters', (select string_agg(id::text, ',') from admin_rule where name like 'reports%' or name like 'user/user%' or name = 'dashboard')) returning id",
  );
  await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [companyAdmin.id, rows[0]!.id]);
});

afterAll(async () => {
  await t?.close();
});

const progress = (who: TestAdmin, query: string) => adminCall<ProgressReport>(who, "GET", `/admin/reports/progress/index?${query}`, undefined, { refuse5xx: true });

describe("progress report", () => {
  it("counts each status as the attempts say, in every room assigned to the classroom", async () => {
    const res = await progress(admin, `group=classroom&id=${classroom}&target=room-${room}`);
    expect(res.code).toBe(1);
    const r = res.data.targets.find((x) => x.key === `room-${room}`)!;
    expect(r.members).toBe(5);
    expect(r.counts).toEqual({ not_started: 1, in_progress: 1, failed: 2, passed: 1, completed: 0, overdue: 0 });
    const byName = Object.fromEntries(res.data.list.map((row) => [row.id, row]));
    expect(byName[m.passer.id]).toMatchObject({ status: "passed", bestScore: 85.5, attempts: 2 });
    expect(byName[m.failer.id]).toMatchObject({ status: "failed", bestScore: 50, attempts: 2 });
    expect(byName[m.sitting.id]).toMatchObject({ status: "in_progress", attempts: 1 });
    expect(byName[m.idle.id]).toMatchObject({ status: "not_started", attempts: 0, bestScore: null });
    expect(byName[m.outsider.id]).toBeUndefined();
    expect(res.data.total).toBe(5);
    // Rooms by their end, then the course.
    expect(res.data.targets.map((x) => x.key)).toEqual([`room-${endedRoom}`, `room-${dueRoom}`, `room-${room}`, `course-${course.id}`]);
  });

  it("marks as overdue whoever has not passed a room whose window ended", async () => {
    const res = await progress(admin, `group=classroom&id=${classroom}&target=room-${endedRoom}`);
    const r = res.data.targets.find((x) => x.key === `room-${endedRoom}`)!;
    expect(r.counts).toMatchObject({ passed: 1, not_started: 4, overdue: 4 });
    expect(res.data.list.filter((row) => row.overdue).map((row) => row.id).sort()).toEqual([m.failer.id, m.sitting.id, m.idle.id, m.stranger.id].sort());
    const overdueOnly = await progress(admin, `group=classroom&id=${classroom}&target=room-${endedRoom}&overdue=1`);
    expect(overdueOnly.data.total).toBe(4);
  });

  it("counts a course's members by the lessons they completed", async () => {
    const res = await progress(admin, `group=classroom&id=${classroom}&target=course-${course.id}`);
    const c = res.data.targets.find((x) => x.key === `course-${course.id}`)!;
    expect(c.counts).toMatchObject({ completed: 1, in_progress: 2, not_started: 2, overdue: 0 });
    const rows = Object.fromEntries(res.data.list.map((row) => [row.id, row]));
    expect(rows[m.passer.id]).toMatchObject({ status: "completed", lessonsDone: 2 });
    expect(rows[m.failer.id]).toMatchObject({ status: "in_progress", lessonsDone: 1 });
    expect(rows[m.sitting.id]).toMatchObject({ status: "in_progress", lessonsDone: 0 });
  });

  it("a course is overdue once the classroom's period ended without completion", async () => {
    await t.database.db.query("update classroom set end_time = $1 where id = $2", [now - DAY, classroom]);
    try {
      const res = await progress(admin, `group=classroom&id=${classroom}&target=course-${course.id}&status=in_progress`);
      expect(res.data.targets.find((x) => x.kind === "course")!.counts.overdue).toBe(4);
      expect(res.data.list.map((row) => [row.status, row.overdue])).toEqual([
        ["in_progress", true],
        ["in_progress", true],
      ]);
    } finally {
      await t.database.db.query("update classroom set end_time = 0 where id = $1", [classroom]);
    }
  });

  it("filters by status and pages", async () => {
    const failed = await progress(admin, `group=classroom&id=${classroom}&target=room-${room}&status=failed&limit=1`);
    expect(failed.data.total).toBe(2);
    expect(failed.data.list).toHaveLength(1);
    const second = await progress(admin, `group=classroom&id=${classroom}&target=room-${room}&status=failed&limit=1&page=2`);
    expect(second.data.list[0]!.id).not.toBe(failed.data.list[0]!.id);
    const beyond = await progress(admin, `group=classroom&id=${classroom}&target=room-${room}&status=failed&limit=1&page=9`);
    expect(beyond.data).toMatchObject({ list: [], total: 2 });
  });

  it("a company's report counts its members in what is assigned to the company", async () => {
    const db = t.database.db;
    const sub = await createCompany(db, { pid: company });
    const subMember = await createMember(db, { companyId: sub });
    await assign(db, "room", room, { companies: [company] });
    await createAttempt(db, room, subMember.id, { score: 99, passed: true });
    const res = await progress(admin, `group=company&id=${sub}`);
    expect(res.data.targets.map((x) => x.key)).toEqual([`room-${room}`]);
    expect(res.data.list).toEqual([expect.objectContaining({ id: subMember.id, status: "passed", bestScore: 99 })]);
    await db.query("delete from org_access where room_id = $1 and company_id = $2", [room, company]);
  });

  it("a company admin sees their companies' members only, and not another company's classroom", async () => {
    const res = await progress(companyAdmin, `group=classroom&id=${classroom}&target=room-${room}`);
    expect(res.code).toBe(1);
    expect(res.data.list.map((row) => row.id)).not.toContain(m.stranger.id);
    expect(res.data.targets.find((x) => x.key === `room-${room}`)!.counts).toMatchObject({ failed: 1, passed: 1 });
    const other = await progress(companyAdmin, `group=classroom&id=${otherClassroom}`);
    expect(other.code).toBe(0);
    const otherCo = await progress(companyAdmin, `group=company&id=${otherCompany}`);
    expect(otherCo.code).toBe(0);
    const groups = await adminCall<{ list: { id: number }[] }>(companyAdmin, "GET", "/admin/reports/progress/groups?group=classroom");
    expect(groups.data.list.map((g) => g.id)).toEqual([classroom]);
  });

  it("refuses hostile filters with code 0", async () => {
    for (const query of [
      "group=school&id=1",
      `group=classroom&id=0`,
      `group=classroom&id=99999999999`,
      `group=classroom&id=${classroom}&target=room-x`,
      `group=classroom&id=${classroom}&target=room-999999`,
      `group=classroom&id=${classroom}&status=sleeping`,
      `group=classroom&id=${classroom}&target=course-${course.id}&status=failed`,
      `group=classroom&id=${classroom}&limit=100000`,
      `group=classroom&id=${classroom}&page=-1`,
      `group=classroom&id=${classroom}&target=room-${room}%27--`,
      `group=classroom&id=2147483647`,
    ]) {
      const res = await progress(admin, query);
      expect(res.code, query).toBe(0);
      expect(res.msg, query).not.toBe("");
    }
  });

  it("needs its rule", async () => {
    expect((await progress(nobody, `group=classroom&id=${classroom}`)).code).not.toBe(1);
    const res = await t.app.inject({ method: "GET", url: `/admin/reports/progress/export?group=classroom&id=${classroom}&format=csv`, headers: nobody.headers });
    expect(res.json<{ code: number }>().code).not.toBe(1);
  });

  it("exports the chosen target's members as CSV, formula text guarded", async () => {
    const res = await t.app.inject({ method: "GET", url: `/admin/reports/progress/export?group=classroom&id=${classroom}&target=room-${room}&format=csv`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    const lines = res.body.replace(/^\ufeff/, "").trim().split("\r\n");
    expect(lines[0]).toBe("ID,Username,Nickname,Status,Overdue,Result,Last activity");
    expect(lines).toHaveLength(6);
    expect(lines.find((l) => l.startsWith(`${m.passer.id},`))).toContain(",Passed,No,85.5,");
    expect(lines.find((l) => l.startsWith(`${m.stranger.id},`))).toContain(",'=HYPERLINK(1),");
    const xlsx = await t.app.inject({ method: "GET", url: `/admin/reports/progress/export?group=classroom&id=${classroom}&format=xlsx`, headers: admin.headers });
    expect(xlsx.headers["content-type"]).toContain("spreadsheetml");
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe("PK");
  });

  it("exports batch after batch in the report's order, each member once", async () => {
    const batch = PROGRESS_EXPORT.batch;
    PROGRESS_EXPORT.batch = 2;
    try {
      for (const target of [`room-${room}`, `course-${course.id}`]) {
        const res = await t.app.inject({ method: "GET", url: `/admin/reports/progress/export?group=classroom&id=${classroom}&target=${target}&format=csv`, headers: admin.headers });
        const ids = res.body.replace(/^\ufeff/, "").trim().split("\r\n").slice(1).map((line) => Number(line.split(",")[0]));
        const page = await progress(admin, `group=classroom&id=${classroom}&target=${target}&limit=100`);
        expect(ids.length, target).toBeGreaterThan(PROGRESS_EXPORT.batch);
        expect(ids, target).toEqual(page.data.list.map((r) => r.id));
      }
    } finally {
      PROGRESS_EXPORT.batch = batch;
    }
  });
});

describe("transcript", () => {
  it("shows every room sat, every course and the review streak as the data say", async () => {
    const res = await adminCall<Transcript>(admin, "GET", `/admin/user/user/transcript?id=${m.passer.id}`);
    expect(res.code).toBe(1);
    const rooms = Object.fromEntries(res.data.rooms.map((r) => [r.id, r]));
    expect(rooms[room]).toMatchObject({ bestScore: 85.5, passed: true, attemptsUsed: 2, attemptsAllowed: 3, passScore: 60, lastAt: now - 2 * DAY + 30 });
    expect(rooms[endedRoom]).toMatchObject({ passed: true, attemptsUsed: 1, attemptsAllowed: 1 });
    expect(res.data.rooms).toHaveLength(3);
    expect(res.data.courses).toEqual([expect.objectContaining({ id: course.id, lessonsDone: 2, lessonsTotal: 2, completedAt: now - DAY })]);
    expect(res.data.review).toMatchObject({ days: 2, reviews: 3 });
    expect(res.data.certificates).toEqual([]);

    const failer = await adminCall<Transcript>(admin, "GET", `/admin/user/user/transcript?id=${m.failer.id}`);
    expect(failer.data.rooms).toEqual([expect.objectContaining({ id: room, bestScore: 50, passed: false, attemptsUsed: 2 })]);
    expect(failer.data.courses[0]).toMatchObject({ lessonsDone: 1, lessonsTotal: 2, completedAt: null });
    expect(failer.data.review.days).toBe(0);
  });

  it("is the member's own in the member center", async () => {
    const res = await memberCall<Transcript>(m.failer, "GET", "/api/user/transcript");
    expect(res.code).toBe(1);
    expect(res.data.member.id).toBe(m.failer.id);
    expect(res.data.rooms.map((r) => r.id)).toEqual([room]);
    const file = await t.app.inject({ method: "GET", url: "/api/user/transcript/export?format=csv", headers: m.failer.headers });
    const lines = file.body.replace(/^\ufeff/, "").trim().split("\r\n");
    expect(lines[0]).toBe("Section,Title,Result,Status,Attempts,Date");
    expect(lines[1]).toMatch(/^Exam,.*,50,Not passed,2\/3,/);
    expect(lines[2]).toMatch(/^Course,.*,1\/2,In progress,,$/);
    expect((await memberCall(m.failer, "GET", "/api/user/transcript/export?format=pdf")).code).toBe(0);
  });

  it("a company admin reaches their companies' members only; it needs its rule", async () => {
    expect((await adminCall(companyAdmin, "GET", `/admin/user/user/transcript?id=${m.passer.id}`)).code).toBe(1);
    const other = await adminCall(companyAdmin, "GET", `/admin/user/user/transcript?id=${m.stranger.id}`);
    expect(other).toMatchObject({ code: 0, msg: "The member does not exist" });
    expect((await adminCall(nobody, "GET", `/admin/user/user/transcript?id=${m.passer.id}`)).code).not.toBe(1);
    for (const id of ["0", "x", "99999999999", "-3"]) expect((await adminCall(admin, "GET", `/admin/user/user/transcript?id=${id}`)).code).toBe(0);
  });
});

describe("dashboard", () => {
  it("lists the rooms due this week with how many assigned members have not passed", async () => {
    const res = await adminCall<DashboardFigures>(admin, "GET", "/admin/dashboard/index");
    const due = res.data.dueThisWeek.find((r) => r.id === dueRoom)!;
    // Assigned to the classroom: five members, of whom the passer passed.
    expect(due).toMatchObject({ notPassed: 4, group: { kind: "classroom", id: classroom } });
    expect(res.data.dueThisWeek.map((r) => r.id)).not.toContain(room);
    expect(res.data.dueThisWeek.map((r) => r.id)).not.toContain(endedRoom);
    const scoped = await adminCall<DashboardFigures>(companyAdmin, "GET", "/admin/dashboard/index");
    expect(scoped.data.dueThisWeek.find((r) => r.id === dueRoom)!.notPassed).toBe(3);
  });
});
