import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListAnswer } from "../../src/shared/admin/crud.ts";
import { memberSheetHeaders } from "../../src/server/crud/resources/memberSheet.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, createCompany, createPaper, createQuestion, type TestAdmin } from "../helpers/factories.ts";

/**
 * The lists' totals from the figures the database keeps (migration 0060): questions per bank,
 * type and status, members per company and status, changed by triggers in each write's
 * transaction. After every kind of write (an add, an import, hiding and restoring, a hard delete
 * and putting the row back, a bank move, a bank's delete cascading to its questions, concurrent
 * adds; a member's company and status, an import, a delete and its restore) the figures
 * equal the rows counted, and each list's total equals `count(*)` of what it lists; the figures
 * answer exactly the lists whose every condition is on their columns (a company admin's scope
 * included), a count the others.
 */

let t: TestApp;
let root: TestAdmin;
const { adminCall } = callers(() => t.app);
const q = async <T,>(text: string, params: unknown[] = []) => (await t.database.db.query<T>(text, params)).rows;
const n = async (text: string, params: unknown[] = []) => (await q<{ n: number }>(text, params))[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
  // Deleted questions and members go to the recycle bin (put back below).
  for (const [rule, table] of [
    ["exam/question", "exam_question"],
    ["user/user", "member"],
  ]) {
    await q("insert into security_data_recycle (name, controller, data_table) values ($1, $2, $3) on conflict (controller) do update set status = 'enable'", [table, rule, table]);
  }
});
afterAll(() => t.close());

/** Every figure kept (those at 0 aside) is the number of rows counted now, for both tables. */
async function expectFiguresExact(): Promise<void> {
  expect(await q("select classify_id, type, status, n::int as n from exam_question_count where n <> 0 order by 1, 2, 3")).toEqual(
    await q("select classify_id, type, status, count(*)::int as n from exam_question group by 1, 2, 3 order by 1, 2, 3"),
  );
  expect(await q("select company_id, status, n::int as n from member_count where n <> 0 order by 1, 2")).toEqual(
    await q("select company_id, status, count(*)::int as n from member group by 1, 2 order by 1, 2"),
  );
}

const search = (field: string, operator: string, val: string | number, i = 0) =>
  `&search[${i}][field]=${field}&search[${i}][operator]=${operator}&search[${i}][val]=${encodeURIComponent(String(val))}`;

async function total(who: TestAdmin, rule: string, query = ""): Promise<number> {
  const res = await adminCall<ListAnswer<unknown>>(who, "GET", `/admin/${rule}/index?limit=1${query}`);
  expect(res.code, res.msg).toBe(1);
  return res.data.total;
}

/** The question list's totals (page 1, a bank, a bank and a type, hidden ones) are count(*) of what it lists. */
async function expectQuestionTotals(bank: number): Promise<void> {
  await expectFiguresExact();
  expect(await total(root, "exam/question")).toBe(await n("select count(*)::int as n from exam_question where status <> 'hidden'"));
  expect(await total(root, "exam/question", search("classify_id", "eq", bank))).toBe(
    await n("select count(*)::int as n from exam_question where classify_id = $1 and status <> 'hidden'", [bank]),
  );
  expect(await total(root, "exam/question", search("classify_id", "eq", bank) + search("type", "eq", "judge", 1))).toBe(
    await n("select count(*)::int as n from exam_question where classify_id = $1 and type = 'judge' and status <> 'hidden'", [bank]),
  );
  expect(await total(root, "exam/question", search("status", "eq", "hidden"))).toBe(await n("select count(*)::int as n from exam_question where status = 'hidden'"));
}

const opts = (...texts: string[]) => texts.map((text, i) => ({ key: "ABCDEFGH"[i]!, text }));
const single = (bank: number, stem: string) => ({ classify_id: bank, type: "single", stem, options: opts("one", "two"), answer: "A", score: 1 });

async function importQuestions(bank: number, rows: string[]): Promise<void> {
  const csv = ["Type,Question,Option A,Option B,Option C,Option D,Option E,Option F,Option G,Option H,Answer,Reference,Analysis,Difficulty,Score,Status", ...rows].join("\r\n");
  const res = await adminCall<{ imported: number }>(root, "POST", "/admin/exam/question/import", { classify_id: bank, name: "q.csv", data: Buffer.from(csv).toString("base64"), confirm: true });
  expect(res.code, res.msg).toBe(1);
  expect(res.data.imported).toBe(rows.length);
}

const recycled = async (table: string, id: number) => (await q<{ id: number }>("select id from security_data_recycle_log where data_table = $1 and row_id = $2", [table, id]))[0]!.id;

describe("the question list's total", () => {
  it("stays exact through adds, an import, hiding, restoring, deletes, bank moves and a bank's delete", async () => {
    const db = t.database.db;
    const bank = await createBank(db);
    const other = await createBank(db);
    await expectQuestionTotals(bank);

    // Added one by one, and several at once.
    const added: number[] = [];
    for (const stem of ["One", "Two", "Three"]) {
      const res = await adminCall<{ id: number }>(root, "POST", "/admin/exam/question/add", single(bank, stem));
      expect(res.code, res.msg).toBe(1);
      added.push(res.data.id);
    }
    const together = await Promise.all(Array.from({ length: 8 }, (_, i) => adminCall<{ id: number }>(root, "POST", "/admin/exam/question/add", single(i % 2 ? bank : other, `Together ${i}`))));
    expect(together.map((r) => r.code)).toEqual(Array(8).fill(1));
    await expectQuestionTotals(bank);

    // An import of every status and two kinds, in one statement.
    await importQuestions(bank, [
      ...Array.from({ length: 12 }, (_, i) => `single,Imported ${i},one,two,,,,,,,B,,,1,1,${i % 3 ? "enable" : "disable"}`),
      ...Array.from({ length: 5 }, (_, i) => `judge,True ${i}?,,,,,,,,,T,,,1,1,enable`),
    ]);
    await expectQuestionTotals(bank);

    // A question in use is hidden, an unused one deleted; hidden ones restored.
    const [used, alsoUsed, unused] = added as [number, number, number];
    await createPaper(db, { rows: [{ fixed: used }, { fixed: alsoUsed }], totalScore: 2, passScore: 1 });
    expect((await adminCall(root, "DELETE", `/admin/exam/question/del?ids=${used},${alsoUsed},${unused}`)).data).toEqual({ count: 1, kept: 2 });
    await expectQuestionTotals(bank);
    expect((await adminCall(root, "POST", "/admin/exam/question/restore", { ids: [used] })).code).toBe(1);
    await expectQuestionTotals(bank);

    // Put back as a restore from the recycle bin does (an insert of the kept row).
    const [kept] = await q<{ data: { row: object } }>("select data from security_data_recycle_log where id = $1", [await recycled("exam_question", unused)]);
    await q("insert into exam_question select * from jsonb_populate_record(null::exam_question, $1::jsonb)", [JSON.stringify(kept!.data.row)]);
    await expectQuestionTotals(bank);

    // Moved to another bank (a hidden one too), a type changed, a status changed.
    const move = { ...single(other, "Moved"), id: unused, status: "disable" };
    expect((await adminCall(root, "POST", "/admin/exam/question/edit", move)).code).toBe(1);
    expect((await adminCall(root, "POST", "/admin/exam/question/edit", { ...single(other, "Hidden, moved"), id: alsoUsed })).code).toBe(1);
    const judge = { classify_id: bank, type: "judge", stem: "Now a judge", options: [], answer: "T", score: 1, id: together[1]!.data.id };
    expect((await adminCall(root, "POST", "/admin/exam/question/edit", judge)).code).toBe(1);
    await expectQuestionTotals(bank);
    await expectQuestionTotals(other);

    // A bank deleted with its questions (the delete cascades to them).
    const gone = await createBank(db);
    await importQuestions(gone, Array.from({ length: 7 }, (_, i) => `single,Bank gone ${i},one,two,,,,,,,A,,,1,1,enable`));
    await expectQuestionTotals(gone);
    expect((await adminCall(root, "DELETE", `/admin/exam/classify/del?ids[]=${gone}`)).code).toBe(1);
    expect(await n("select count(*)::int as n from exam_question where classify_id = $1", [gone])).toBe(0);
    await expectQuestionTotals(gone);

    // Written in SQL as the bench seeds and as an update of many rows does.
    await q("update exam_question set classify_id = $1 where classify_id = $2 and type = 'judge'", [other, bank]);
    await q("update exam_question set update_time = update_time + 1 where classify_id = $1", [other]);
    await q("delete from exam_question where classify_id = $1 and status = 'disable'", [bank]);
    await expectQuestionTotals(bank);
    await expectQuestionTotals(other);
  });

  it("is the sum of the figures exactly when every condition is on their columns, else a count", async () => {
    const db = t.database.db;
    const bank = await createBank(db);
    for (const stem of ["apple", "banana", "cherry"]) await createQuestion(db, bank, { stem });
    const listed = {
      page: "",
      bank: search("classify_id", "eq", bank),
      banks: search("classify_id", "IN", `${bank},${bank + 1000}`),
      stem: search("classify_id", "eq", bank) + search("stem", "LIKE", "an", 1),
      quick: `${search("classify_id", "eq", bank)}&quickSearch=an`,
      difficulty: search("difficulty", "eq", 1),
    };
    const before = Object.fromEntries(await Promise.all(Object.entries(listed).map(async ([k, v]) => [k, await total(root, "exam/question", v)] as const)));
    // A figure made wrong on purpose shows which totals read the figures.
    await q("update exam_question_count set n = n + 1000 where classify_id = $1 and type = 'single' and status = 'enable'", [bank]);
    try {
      const after = Object.fromEntries(await Promise.all(Object.entries(listed).map(async ([k, v]) => [k, await total(root, "exam/question", v)] as const)));
      expect(after).toEqual({ ...before, page: before.page! + 1000, bank: before.bank! + 1000, banks: before.banks! + 1000 });
    } finally {
      await q("update exam_question_count set n = n - 1000 where classify_id = $1 and type = 'single' and status = 'enable'", [bank]);
    }
    expect(before).toMatchObject({ bank: 3, banks: 3, stem: 1, quick: 1 });
    await expectFiguresExact();
  });
});

describe("the member list's total", () => {
  it("stays exact through adds, company and status changes, an import, deletes and restores, and answers a company admin within their companies", async () => {
    const db = t.database.db;
    const parent = await createCompany(db, { name: "Counted parent" });
    const child = await createCompany(db, { name: "Counted child", pid: parent });
    const elsewhere = await createCompany(db, { name: "Counted elsewhere" });
    // A company admin of the parent holding every rule (a group granting "*").
    const scoped = await createAdmin(db, { companyId: parent });
    const [group] = await q<{ id: number }>("insert into admin_group (name, rules) values ('counted', '*') returning id");
    await q("insert into admin_group_access (uid, group_id) values ($1, $2)", [scoped.id, group!.id]);
    const expectMemberTotals = async () => {
      await expectFiguresExact();
      expect(await total(root, "user/user")).toBe(await n("select count(*)::int as n from member"));
      expect(await total(root, "user/user", search("company_id", "eq", child))).toBe(await n("select count(*)::int as n from member where company_id = $1", [child]));
      expect(await total(root, "user/user", search("status", "eq", "disable"))).toBe(await n("select count(*)::int as n from member where status = 'disable'"));
      // A company admin's list: their company and those under it.
      expect(await total(scoped, "user/user")).toBe(await n("select count(*)::int as n from member where company_id in ($1, $2)", [parent, child]));
    };
    await expectMemberTotals();

    const ids: number[] = [];
    for (const [i, company_id] of [parent, child, elsewhere, null].entries()) {
      const res = await adminCall<{ id: number }>(root, "POST", "/admin/user/user/add", { username: `counted${i}`, password: "secret-123", company_id });
      expect(res.code, res.msg).toBe(1);
      ids.push(res.data.id);
    }
    // A company admin's add lands in their company.
    expect((await adminCall(scoped, "POST", "/admin/user/user/add", { username: "counted_scoped", password: "secret-123" })).code).toBe(1);
    const together = await Promise.all(Array.from({ length: 6 }, (_, i) => adminCall(root, "POST", "/admin/user/user/add", { username: `together${i}`, password: "secret-123", company_id: i % 2 ? child : null })));
    expect(together.map((r) => r.code)).toEqual(Array(6).fill(1));
    await expectMemberTotals();

    // Moved between companies, disabled, enabled; a login (its row changes, not its figures).
    const [a, b, c] = ids as [number, number, number];
    const edit = (id: number, username: string, body: object) => adminCall(root, "POST", "/admin/user/user/edit", { id, username, password: "", ...body });
    expect((await edit(a, "counted0", { company_id: elsewhere })).code).toBe(1);
    expect((await edit(b, "counted1", { company_id: child, status: "disable" })).code).toBe(1);
    expect((await edit(c, "counted2", { company_id: null })).code).toBe(1);
    await q("update member set last_login_time = 1, update_time = update_time + 1 where id = any($1::int[])", [ids]);
    await expectMemberTotals();

    // An import adding one member and moving another.
    const header = memberSheetHeaders("en");
    const row = (cells: Record<string, string>) => ["username", "nickname", "email", "mobile", "company", "duty", "classrooms", "group", "password", "invite"].map((f) => cells[f] ?? "").join(",");
    const csv = `\ufeff${[header.map((h) => (h.includes(",") ? `"${h}"` : h)).join(","), row({ username: "counted_new", company: "Counted child", password: "secret-123" }), row({ username: "counted3", company: "Counted parent" })].join("\n")}\n`;
    const imported = await adminCall<{ imported: number }>(root, "POST", "/admin/user/user/import", { name: "m.csv", data: Buffer.from(csv).toString("base64"), confirm: true });
    expect(imported.code, imported.msg).toBe(1);
    expect(imported.data.imported).toBe(2);
    await expectMemberTotals();

    // Deleted (kept in the recycle bin), and restored.
    expect((await adminCall(root, "DELETE", `/admin/user/user/del?ids=${a},${b}`)).code).toBe(1);
    await expectMemberTotals();
    expect((await adminCall(root, "POST", "/admin/security/dataRecycleLog/restore", { ids: [await recycled("member", b)] })).code).toBe(1);
    await expectMemberTotals();

    // The figures answer the company admin's list (scoped to their companies) and a company's, not a quick search.
    const before = [await total(scoped, "user/user"), await total(root, "user/user", search("company_id", "eq", child)), await total(root, "user/user", "&quickSearch=counted")];
    await q("update member_count set n = n + 1000 where company_id = $1 and status = 'enable'", [child]);
    try {
      const after = [await total(scoped, "user/user"), await total(root, "user/user", search("company_id", "eq", child)), await total(root, "user/user", "&quickSearch=counted")];
      expect(after).toEqual([before[0]! + 1000, before[1]! + 1000, before[2]]);
    } finally {
      await q("update member_count set n = n - 1000 where company_id = $1 and status = 'enable'", [child]);
    }
    await expectMemberTotals();
  });
});
