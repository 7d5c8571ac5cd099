import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EditAnswer, ListAnswer } from "../../src/shared/admin/crud.ts";
import type { Envelope } from "../../src/shared/envelope.ts";
import type { BankDownload } from "../../src/shared/exam/catalog.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers, download } from "../helpers/call.ts";
import { createAdmin, createBank, createCompany, createMember, createPaper, createQuestion, createRoom, type TestAdmin, type TestMember } from "../helpers/factories.ts";

/**
 * A question in use cannot be hard-deleted: a delete of questions a paper row names or
 * an attempt sat hides them (status 'hidden', migration 0039) and deletes only the others; hidden
 * questions leave practice (the bank's ETag changes), new starts and new paper rows, are listed
 * only when searched for, and come back with `restore`. `usage?ids=` counts papers and attempts.
 */

let t: TestApp;
let root: TestAdmin;
let serial = 0;

// Members and staff alike are answered in English here.
const { adminCall: call } = callers(() => t.app);
const q = async <T,>(text: string, params: unknown[] = []) => (await t.database.db.query<T>(text, params)).rows;

/** A non-super admin whose one group grants these rules (by name). */
async function adminWith(rules: string[]): Promise<TestAdmin> {
  const a = await createAdmin(t.database.db, { isSuper: false });
  const ids = (await q<{ id: number }>("select id from admin_rule where name = any($1::text[])", [rules])).map((r) => r.id);
  expect(ids.length).toBe(rules.length);
  const [group] = await q<{ id: number }>("insert into admin_group (name, rules) values ($1, $2) returning id", [`hide${serial++}`, ids.join(",")]);
  await q("insert into admin_group_access (uid, group_id) values ($1, $2)", [a.id, group!.id]);
  return a;
}

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

async function bankOf(m: TestMember, bank: number) {
  const res = await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${bank}`, headers: m.headers });
  const body = res.json<Envelope<BankDownload>>();
  expect(body.code, body.msg).toBe(1);
  return { etag: res.headers.etag as string, ids: body.data.questions.map((x) => x.id), count: body.data.bank.questionCount };
}

describe("deleting questions in use", () => {
  it("hides a used question (kept, the record unchanged, out of practice, starts and new rows), deletes an unused one, and restores", async () => {
    const db = t.database.db;
    const bank = await createBank(db);
    const used = await createQuestion(db, bank, { answer: "A", score: 2, stem: "Used by a paper and an attempt" });
    const other = await createQuestion(db, bank, { answer: "A", score: 2, stem: "The paper's other question" });
    const inPaperOnly = await createQuestion(db, bank, { answer: "A", score: 2, stem: "In a paper nobody sat" });
    const unused = await createQuestion(db, bank, { answer: "A", score: 2, stem: "Used nowhere" });
    const paper = await createPaper(db, { rows: [{ fixed: used, score: 5 }, { fixed: other, score: 5 }], totalScore: 10, passScore: 5 });
    await createPaper(db, { rows: [{ fixed: inPaperOnly, score: 10 }], totalScore: 10, passScore: 5 });

    // A member sits the paper as a mock (graded on the server): one attempt holds `used`.
    const ann = await createMember(db);
    const uuid = randomUUID();
    const op = { id: randomUUID(), type: "attempt.submit", at: Date.now(), payload: { attemptId: uuid, paperId: paper, startedAt: Date.now() - 60_000, submittedAt: Date.now(), answers: { [used]: "A", [other]: "B" } } };
    expect((await call<{ results: { status: string }[] }>(ann, "POST", "/api/exam/sync", { ops: [op] })).data.results[0]!.status).toBe("applied");
    const record = await call(ann, "GET", `/api/exam/record?uuid=${uuid}`);
    expect(record.code, record.msg).toBe(1);

    // Usage: papers (fixed rows) and attempts, per id.
    const usage = await call<{ list: unknown[] }>(root, "GET", `/admin/exam/question/usage?ids=${used},${inPaperOnly},${unused}`);
    expect(usage.code, usage.msg).toBe(1);
    expect(usage.data.list).toEqual([
      { id: used, papers: 1, attempts: 1 },
      { id: inPaperOnly, papers: 1, attempts: 0 },
      { id: unused, papers: 0, attempts: 0 },
    ]);

    const before = await bankOf(ann, bank);
    expect(before.ids).toEqual(expect.arrayContaining([used, inPaperOnly, unused]));

    const del = await call(root, "DELETE", `/admin/exam/question/del?ids=${used},${inPaperOnly},${unused}`);
    expect(del.code, del.msg).toBe(1);
    expect(del.data).toEqual({ count: 1, kept: 2 });
    expect(del.msg).toBe("Deleted: 1; hidden because in use: 2");
    // Rows still there (hidden, status kept for the restore), the unused one gone; paper rows kept.
    expect(await q("select id, status, hidden_status from exam_question where id = any($1::int[]) order by id", [[used, inPaperOnly, unused]])).toEqual([
      { id: used, status: "hidden", hidden_status: "enable" },
      { id: inPaperOnly, status: "hidden", hidden_status: "enable" },
    ]);
    expect(await q("select question_id from exam_paper_row where paper_id = $1 order by question_id", [paper])).toEqual([{ question_id: used }, { question_id: other }].sort((a, b) => a.question_id - b.question_id));
    // The member's record is unchanged.
    expect((await call(ann, "GET", `/api/exam/record?uuid=${uuid}`)).data).toEqual(record.data);
    // Out of practice: not in the bank, its count and ETag changed; the catalog counts it no more.
    const after = await bankOf(ann, bank);
    expect(after.ids).not.toContain(used);
    expect(after.ids).not.toContain(inPaperOnly);
    expect(after.count).toBe(before.count - 3);
    expect(after.etag).not.toBe(before.etag);
    // Not listed in the bank screen unless searched for by status.
    const listed = await call<ListAnswer<{ id: number }>>(root, "GET", `/admin/exam/question/index?limit=100&search[0][field]=classify_id&search[0][val]=${bank}&search[0][operator]=eq`);
    expect(listed.data.list.map((r) => r.id)).toEqual([other]);
    const hiddenList = await call<ListAnswer<{ id: number }>>(root, "GET", `/admin/exam/question/index?limit=100&search[0][field]=status&search[0][val]=hidden&search[0][operator]=eq`);
    expect(hiddenList.data.list.map((r) => r.id).sort()).toEqual([used, inPaperOnly].sort());
    // Not a new fixed paper row.
    const row = await call(root, "POST", "/admin/exam/paperRow/add", { paper_id: paper, kind: "fixed", question_id: used, score: 1, weigh: 0, remark: "" });
    expect(row.code).toBe(0);
    expect((row.data as { fields?: Record<string, string> } | null)?.fields?.question_id).toMatch(/restore it first/);
    expect(await q("select count(*)::int as n from exam_paper_row where paper_id = $1", [paper])).toEqual([{ n: 2 }]);
    // Nor exported with the bank's questions.
    const exported = await download(t.app, root, `/admin/exam/question/export?classify_id=${bank}&format=csv`);
    expect(exported.data.toString("utf8")).not.toContain("hidden");
    // Not given by a new start: the paper's other question only.
    const room = await createRoom(db, paper);
    const bob = await createMember(db);
    const start = await call<OfficialStart>(bob, "POST", "/api/exam/official/start", { roomId: room });
    expect(start.code, start.msg).toBe(1);
    expect(start.data.questions.map((x) => x.id)).toEqual([other]);
    // Deleting it again keeps it hidden (still in use).
    const again = await call(root, "DELETE", `/admin/exam/question/del?ids=${used}`);
    expect(again.data).toEqual({ count: 0, kept: 1 });
    expect(await q("select status from exam_question where id = $1", [used])).toEqual([{ status: "hidden" }]);

    // Restore: back as it was, in practice again with a new ETag.
    const hiddenEtag = (await bankOf(ann, bank)).etag;
    const restored = await call(root, "POST", "/admin/exam/question/restore", { ids: [inPaperOnly] });
    expect(restored.code, restored.msg).toBe(1);
    expect(restored.data).toEqual({ count: 1 });
    expect(await q("select status, hidden_status, hidden_at from exam_question where id = $1", [inPaperOnly])).toEqual([{ status: "enable", hidden_status: null, hidden_at: null }]);
    const back = await bankOf(ann, bank);
    expect(back.ids).toContain(inPaperOnly);
    expect(back.etag).not.toBe(hiddenEtag);
    // Nothing hidden among the ids: a clear refusal.
    expect(await call(root, "POST", "/admin/exam/question/restore", { ids: [other] })).toMatchObject({ code: 0 });
  });

  it("keeps a disabled question's status through hiding, editing and restoring", async () => {
    const db = t.database.db;
    const bank = await createBank(db);
    const id = await createQuestion(db, bank, { answer: "A", stem: "Disabled" });
    await q("update exam_question set status = 'disable' where id = $1", [id]);
    await createPaper(db, { rows: [{ fixed: id, score: 1 }], totalScore: 1, passScore: 1 });
    expect((await call(root, "DELETE", `/admin/exam/question/del?ids=${id}`)).data).toEqual({ count: 0, kept: 1 });
    // The form shows the status a restore gives back; saving keeps the question hidden.
    const form = await call<EditAnswer<Record<string, unknown>>>(root, "GET", `/admin/exam/question/edit?id=${id}`);
    expect(form.data.row).toMatchObject({ status: "disable", hidden: true });
    const { hidden: _h, hidden_at: _a, create_time: _c, update_time: _u, ...row } = form.data.row;
    const saved = await call(root, "POST", "/admin/exam/question/edit", { ...row, status: "enable" });
    expect(saved.code, saved.msg).toBe(1);
    expect(await q("select status, hidden_status from exam_question where id = $1", [id])).toEqual([{ status: "hidden", hidden_status: "enable" }]);
    expect((await call(root, "POST", "/admin/exam/question/restore", { ids: [id] })).code).toBe(1);
    expect(await q("select status from exam_question where id = $1", [id])).toEqual([{ status: "enable" }]);
  });
});

describe("who may ask and restore", () => {
  it("needs exam/question/del for usage and exam/question/restore for restore; company admins cannot restore shared questions", async () => {
    const db = t.database.db;
    const bank = await createBank(db);
    const id = await createQuestion(db, bank, { answer: "A" });
    await createPaper(db, { rows: [{ fixed: id, score: 1 }], totalScore: 1, passScore: 1 });
    await call(root, "DELETE", `/admin/exam/question/del?ids=${id}`);

    const reader = await adminWith(["exam/question/index"]);
    // The route's one permission check refuses (code 401) an admin without the action's rule.
    expect((await call(reader, "GET", `/admin/exam/question/usage?ids=${id}`)).code).toBe(401);
    expect((await call(reader, "POST", "/admin/exam/question/restore", { ids: [id] })).code).toBe(401);
    const deleter = await adminWith(["exam/question/index", "exam/question/del"]);
    expect((await call<{ list: unknown[] }>(deleter, "GET", `/admin/exam/question/usage?ids=${id}`)).data.list).toEqual([{ id, papers: 1, attempts: 0 }]);
    expect((await call(deleter, "POST", "/admin/exam/question/restore", { ids: [id] })).code).toBe(401);
    const company = await createAdmin(db, { companyId: await createCompany(db) });
    expect((await call(company, "POST", "/admin/exam/question/restore", { ids: [id] })).code).not.toBe(1);
    expect(await q("select status from exam_question where id = $1", [id])).toEqual([{ status: "hidden" }]);
    const restorer = await adminWith(["exam/question/index", "exam/question/restore"]);
    expect((await call(restorer, "POST", "/admin/exam/question/restore", { ids: [id] })).code).toBe(1);
    expect(await q("select status from exam_question where id = $1", [id])).toEqual([{ status: "enable" }]);
  });

  it("gives exam/question/restore to groups that held exam/question/del when migration 0039 ran", async () => {
    const [rule] = await q<{ id: number; pid: number }>("select r.id, r.pid from admin_rule r join admin_rule p on p.id = r.pid and p.name = 'exam/question' where r.name = 'exam/question/restore'");
    expect(rule).toBeDefined();
  });
});
