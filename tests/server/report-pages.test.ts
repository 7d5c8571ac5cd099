import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { progressRows } from "../../src/server/modules/report/service.ts";
import type { ProgressMemberRow, ProgressQuery, ProgressReport, ReportGroup } from "../../src/shared/reports.ts";
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
} from "../helpers/factories.ts";

/**
 * The progress report's page, read status by status from the target's counts (statusPage: the
 * members not started by username among the group's, the others among those the attempts or
 * progress name), and its counts (a company's members from the figures of migration 0060): every
 * page of every filter, at several page sizes, is the slice of the report's whole order as the
 * export reads it (every group member's status in one pass), and the counts are that order's.
 * Groups: a company with a sub-company, a classroom whose period ended, a duty; targets: an open
 * room, an ended room open to one member group, a room nobody sat, a course with a disabled lesson.
 */

let t: TestApp;
const { adminCall } = callers(() => t.app);
const DAY = 86_400;
const now = Math.floor(Date.now() / 1000);
let root: TestAdmin;
let companyAdmin: TestAdmin;
/** Each admin's reach (service.reachOf): a company admin's company, else null. */
const reaches = new Map<TestAdmin, number | null>();
const groups: { kind: ReportGroup; id: number }[] = [];
const targets: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const company = await createCompany(db);
  const sub = await createCompany(db, { pid: company });
  const other = await createCompany(db);
  const [duty] = (await db.query<{ id: number }>("insert into duty (name) values ('pages duty') returning id")).rows.map((r) => r.id);
  const [staff] = (await db.query<{ id: number }>("insert into user_group (name) values ('pages staff') returning id")).rows.map((r) => r.id);
  // 40 members whose usernames do not follow their ids, over the company, its sub-company and another.
  const members: number[] = [];
  for (let i = 0; i < 40; i++) {
    const username = `p${String((i * 17) % 40).padStart(2, "0")}_${i}`;
    const m = await createMember(db, { username, companyId: [company, sub, other, null][i % 4], groupId: i % 3 === 0 ? staff! : null, dutyId: i % 5 === 0 ? duty! : null });
    members.push(m.id);
  }
  const classroom = await createClassroom(db, { companyId: company, memberIds: members.filter((_, i) => i % 2 === 0) });
  await db.query("update classroom set end_time = $1 where id = $2", [now - DAY, classroom]);

  const bank = await createBankWithQuestions(db, 1, { kind: "exam" });
  const paper = await createPaper(db, { rows: [{ fixed: bank.questionIds[0]!, score: 100 }] });
  const open = await createRoom(db, paper, { attemptsAllowed: 3, endTime: now + 10 * DAY });
  const ended = await createRoom(db, paper, { startTime: now - 10 * DAY, endTime: now - DAY, userGroupId: staff! });
  const empty = await createRoom(db, paper, { endTime: now + 20 * DAY });
  const course = await createCourse(db, { lessons: [{}, {}, {}] });
  await db.query("update lesson set status = 'disable' where id = $1", [course.lessonIds[2]]);
  for (const room of [open, ended, empty]) await assign(db, "room", room, { companies: [company], classrooms: [classroom], duties: [duty!] });
  // The company's rooms (a company admin reports on those only).
  await db.query("update exam_room set company_id = $1 where id = any($2::int[])", [company, [open, ended, empty]]);
  await assign(db, "course", course.id, { companies: [company], classrooms: [classroom], duties: [duty!] });
  targets.push(`room-${open}`, `room-${ended}`, `room-${empty}`, `course-${course.id}`);

  // Every status: passed (after a fail), failed, an open attempt, one waiting for marking; lessons
  // done, half done, only the disabled one.
  for (const [i, id] of members.entries()) {
    if (i % 6 === 0) {
      await createAttempt(db, open, id, { score: 30, passed: false, startedAt: now - 3 * DAY });
      await createAttempt(db, open, id, { score: 80 + (i % 7), passed: true, startedAt: now - 2 * DAY });
    } else if (i % 6 === 1) await createAttempt(db, open, id, { score: 20 + i, passed: false });
    else if (i % 6 === 2) await createAttempt(db, open, id, { status: "open" });
    else if (i % 6 === 3) await createAttempt(db, open, id, { score: 50, passed: null });
    if (i % 4 === 1) await createAttempt(db, ended, id, { score: 70, passed: i % 8 === 1 });
    if (i % 5 !== 4) await createLessonProgress(db, id, course.lessonIds[0]!, { completed: i % 5 !== 3, at: now - i * 60 });
    if (i % 5 < 2) await createLessonProgress(db, id, course.lessonIds[1]!, { completed: i % 5 === 0, at: now - i * 30 });
    if (i % 5 === 4 && i % 2 === 0) await createLessonProgress(db, id, course.lessonIds[2]!, { completed: true });
  }

  root = await createAdmin(db);
  companyAdmin = await createAdmin(db, { companyId: company });
  const { rows } = await db.query<{ id: number }>("insert into admin_group (pid, name, rules) values (0, 'pages', '*') returning id");
  await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [companyAdmin.id, rows[0]!.id]);
  reaches.set(root, null).set(companyAdmin, company);
  groups.push({ kind: "company", id: company }, { kind: "company", id: sub }, { kind: "classroom", id: classroom }, { kind: "duty", id: duty! });
});

afterAll(async () => {
  await t?.close();
});

/** Every row of the report's order in one pass (the export's reading), for the admin's reach. */
async function wholeOrder(who: TestAdmin, query: Omit<ProgressQuery, "page" | "limit">): Promise<ProgressMemberRow[]> {
  const { rows } = await progressRows(t.database.db, query, reaches.get(who)!, now);
  const out: ProgressMemberRow[] = [];
  for await (const batch of rows) out.push(...batch);
  return out;
}

const FILTERS = ["", "status=not_started", "status=in_progress", "status=failed", "status=passed", "status=completed", "overdue=1", "overdue=0"];
/** The statuses (overdue or not) the whole orders showed, over every case. */
const seen = new Set<string>();

/** Each group as the super admin, and two as a company admin (the report is kept within their companies). */
const NAMES = ["the company", "its sub-company", "the classroom", "the duty"];
const CASES = [
  ...[0, 1, 2, 3].map((group) => ({ group, name: NAMES[group]!, admin: "root" as const })),
  ...[0, 3].map((group) => ({ group, name: NAMES[group]!, admin: "company admin" as const })),
];

describe("the progress report's pages", () => {
  it.each(CASES)("are slices of the report's whole order, and its counts are that order's: $name as $admin, every target, filter and page", async ({ group: index, admin }) => {
    const who = admin === "root" ? root : companyAdmin;
    const group = groups[index]!;
    for (const target of targets) {
      const base = `group=${group.kind}&id=${group.id}&target=${target}`;
      const all = await wholeOrder(who, { group: group.kind, id: group.id, target });
      // The counts: the whole order's statuses and overdue flags.
      const first = await adminCall<ProgressReport>(who, "GET", `/admin/reports/progress/index?${base}`);
      expect(first.code, `${base}: ${first.msg}`).toBe(1);
      const summary = first.data.targets.find((x) => x.key === target)!;
      const tally = { not_started: 0, in_progress: 0, failed: 0, passed: 0, completed: 0, overdue: 0 };
      for (const row of all) {
        tally[row.status]++;
        if (row.overdue) tally.overdue++;
        seen.add(row.overdue ? `${row.status}, overdue` : row.status);
      }
      expect(summary.counts, base).toEqual(tally);
      expect(summary.members, base).toBe(all.length);

      for (const filter of FILTERS) {
        if (target.startsWith("course") ? /failed|passed/.test(filter) : filter.includes("completed")) continue;
        const [key, value] = filter.split("=");
        const expected = all.filter((row) => !key || (key === "status" ? row.status === value : row.overdue === (value === "1")));
        // Pages of one row (every offset) of the whole list; of three rows (across statuses) of each filter.
        for (const limit of filter ? [3] : [1, 3]) {
          for (let page = 1; (page - 1) * limit <= expected.length; page++) {
            const res = await adminCall<ProgressReport>(who, "GET", `/admin/reports/progress/index?${base}&${filter}&limit=${limit}&page=${page}`);
            expect(res.code, res.msg).toBe(1);
            expect(res.data.total, `${base}&${filter}`).toBe(expected.length);
            expect(res.data.list, `${base}&${filter}&limit=${limit}&page=${page}`).toEqual(expected.slice((page - 1) * limit, page * limit));
          }
        }
      }
    }
  }, 120_000);

  it("were compared over every status, overdue or not (else the comparison proves less than it says)", () => {
    expect([...seen].sort()).toEqual(["completed", "failed", "failed, overdue", "in_progress", "in_progress, overdue", "not_started", "not_started, overdue", "passed"].sort());
  });

  it("reads a company's members from the figures the database keeps", async () => {
    const [company] = groups;
    const notStarted = async () =>
      (await adminCall<ProgressReport>(root, "GET", `/admin/reports/progress/index?group=company&id=${company!.id}&target=${targets[0]}`)).data.targets.find((x) => x.key === targets[0])!.counts
        .not_started;
    const before = await notStarted();
    // A figure made wrong on purpose shows the report reads it (the figures are checked exact in list-counts.test.ts).
    await t.database.db.query("update member_count set n = n + 5 where company_id = $1 and status = 'enable'", [company!.id]);
    try {
      expect(await notStarted()).toBe(before + 5);
    } finally {
      await t.database.db.query("update member_count set n = n - 5 where company_id = $1 and status = 'enable'", [company!.id]);
    }
  });
});
