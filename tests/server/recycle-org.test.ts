import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers, type Method } from "../helpers/call.ts";
import { createAdmin, createBank, createBankWithQuestions, createClassroom, createCompany, createCourse, createDuty, createOfficialExam, type TestAdmin } from "../helpers/factories.ts";

/**
 * The recycle bin and who content is open to: deleting a
 * course, an exam room or a question bank with a recycle rule keeps its `org_access` rows (the
 * delete cascades to them) and restoring it brings them back, so restored content is open to the
 * same companies, duties and classrooms as before — never to everyone by accident.
 */

let t: TestApp;
let root: TestAdmin;

const { send } = callers(() => t.app);
/** The super admin's call; the answers' data read field by field. */
const call = (method: Method, url: string, payload?: object) => send<Record<string, unknown>>(root, method, url, payload);

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

const targets = [
  { name: "course", rule: "course/course", table: "course", column: "course_id", make: async () => (await createCourse(t.database.db, { lessons: [] })).id },
  { name: "exam room", rule: "exam/room", table: "exam_room", column: "room_id", make: async () => (await createOfficialExam(t.database.db, { singles: 1, judges: 0, draw: 1 })).roomId },
  { name: "question bank", rule: "exam/classify", table: "exam_classify", column: "bank_id", make: async () => createBank(t.database.db) },
] as const;

describe.each(targets)("a deleted $name, restored from the recycle bin", ({ rule, table, column, make }) => {
  it("is open again to exactly the companies, duties and classrooms it was assigned to", async () => {
    const db = t.database.db;
    await db.query(
      "insert into security_data_recycle (name, controller, data_table) values ($1, $2, $3) on conflict (controller) do update set status = 'enable'",
      [`recycle ${table}`, rule, table],
    );
    const id = await make();
    const company = await createCompany(db);
    const duty = await createDuty(db);
    const classroom = await createClassroom(db, { companyId: company });
    await db.query(`insert into org_access (${column}, company_id) values ($1, $2)`, [id, company]);
    await db.query(`insert into org_access (${column}, duty_id) values ($1, $2)`, [id, duty]);
    await db.query(`insert into org_access (${column}, classroom_id) values ($1, $2)`, [id, classroom]);
    const access = async () =>
      (await db.query<{ company_id: number | null; duty_id: number | null; classroom_id: number | null }>(`select company_id, duty_id, classroom_id from org_access where ${column} = $1 order by id`, [id])).rows;
    const before = await access();
    expect(before).toHaveLength(3);
    const form = (await call("GET", `/admin/${rule}/edit?id=${id}`)).data.row;
    expect(form).toMatchObject({ company_ids: [company], duty_ids: [duty], classroom_ids: [classroom] });

    const deleted = await call("DELETE", `/admin/${rule}/del?ids[]=${id}`);
    expect(deleted.code, deleted.msg).toBe(1);
    expect(await access()).toEqual([]);
    const log = (await db.query<{ id: number }>("select id from security_data_recycle_log where data_table = $1 and row_id = $2", [table, id])).rows[0];
    expect(log).toBeDefined();

    const restored = await call("POST", "/admin/security/dataRecycleLog/restore", { ids: [log!.id] });
    expect(restored.code, restored.msg).toBe(1);
    expect(await access()).toEqual(before);
    expect((await call("GET", `/admin/${rule}/edit?id=${id}`)).data.row).toMatchObject({ company_ids: [company], duty_ids: [duty], classroom_ids: [classroom] });
  });
});

describe("a deleted question, restored from the recycle bin", () => {
  it("comes back with its versions exactly as they were, alone or with its bank", async () => {
    const db = t.database.db;
    for (const [rule, table] of [["exam/question", "exam_question"], ["exam/classify", "exam_classify"]]) {
      await db.query(
        "insert into security_data_recycle (name, controller, data_table) values ($1, $2, $3) on conflict (controller) do update set status = 'enable'",
        [`recycle ${table}`, rule, table],
      );
    }
    const bank = await createBankWithQuestions(db, 2);
    const [first, second] = bank.questionIds as [number, number];
    // A second version of the first question (what members sat under version 1 stays answerable by it).
    await db.query("update exam_question set stem = stem || ' (edited)' where id = $1", [first]);
    const state = async (ids: number[]) => ({
      questions: (await db.query("select * from exam_question where id = any($1::int[]) order by id", [ids])).rows,
      versions: (await db.query("select * from exam_question_version where question_id = any($1::int[]) order by question_id, version", [ids])).rows,
    });
    const before = await state([first, second]);
    expect(before.versions.map((v) => [v.question_id, v.version])).toEqual([
      [first, 1],
      [first, 2],
      [second, 1],
    ]);
    const restore = async (table: string, id: number) => {
      const log = (await db.query<{ id: number }>("select id from security_data_recycle_log where data_table = $1 and row_id = $2", [table, id])).rows[0];
      const restored = await call("POST", "/admin/security/dataRecycleLog/restore", { ids: [log!.id] });
      expect(restored.code, restored.msg).toBe(1);
    };
    // The question alone.
    expect((await call("DELETE", `/admin/exam/question/del?ids[]=${first}`)).code).toBe(1);
    expect((await state([first])).versions).toEqual([]);
    await restore("exam_question", first);
    expect(await state([first, second])).toEqual(before);
    // The bank, its delete cascading to both questions and their versions.
    expect((await call("DELETE", `/admin/exam/classify/del?ids[]=${bank.id}`)).code).toBe(1);
    expect((await state([first, second])).questions).toEqual([]);
    await restore("exam_classify", bank.id);
    expect(await state([first, second])).toEqual(before);
  });
});

describe("a restore whose company is gone meanwhile", () => {
  it("is refused and changes nothing (the content is not opened to all)", async () => {
    const db = t.database.db;
    await db.query("insert into security_data_recycle (name, controller, data_table) values ('recycle course', 'course/course', 'course') on conflict (controller) do update set status = 'enable'");
    const id = (await createCourse(db, { lessons: [] })).id;
    const company = await createCompany(db);
    await db.query("insert into org_access (course_id, company_id) values ($1, $2)", [id, company]);
    expect((await call("DELETE", `/admin/course/course/del?ids[]=${id}`)).code).toBe(1);
    // The company is deleted while the course is in the bin (nothing assigns to it any more).
    expect((await call("DELETE", `/admin/org/company/del?ids[]=${company}`)).code).toBe(1);
    const log = (await db.query<{ id: number }>("select id from security_data_recycle_log where data_table = 'course' and row_id = $1", [id])).rows[0]!;
    const refused = await call("POST", "/admin/security/dataRecycleLog/restore", { ids: [log.id] });
    expect(refused.code).toBe(0);
    expect(refused.msg).toBe(`Record ${log.id} cannot be restored: a row it refers to no longer exists`);
    expect((await db.query("select 1 from course where id = $1", [id])).rows).toHaveLength(0);
    expect((await db.query("select 1 from org_access where course_id = $1", [id])).rows).toHaveLength(0);
  });
});
