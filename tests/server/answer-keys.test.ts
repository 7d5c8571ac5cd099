import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { resources } from "../../src/server/crud/resources/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCourse, storeFile } from "../helpers/factories.ts";

/**
 * The answer-key property: whatever a member calls — every GET route of the route
 * table with valid parameters, the sync op `attempt.submit` and its record, official exams — the
 * answer and analysis of a question an official exam keeps to itself (an exam-only bank, or a
 * question an open or upcoming room's paper can contain) never appear in a response.
 *
 * The content below is made for the test: every answer and analysis is a distinctive string,
 * so a substring search over the raw bodies is meaningful; questions that are NOT withheld carry
 * the same kind of strings and must show up (in the bank download), so the search can see them.
 */

let t: TestApp;
let dataDir = "";
const routes: RouteOptions[] = [];
const now = () => Math.floor(Date.now() / 1000);

const answerOf = (key: string) => `KEYPROBE-ANSWER-${key}`;
const analysisOf = (key: string) => `KEYPROBE-ANALYSIS-${key}`;

const ids: Record<string, number> = {};
const banks: Record<string, number> = {};
const papers: Record<string, number> = {};
const rooms: Record<string, number> = {};
/** Keys of questions whose answers must never reach the member. */
const secret = ["p1-fixed", "p2-fill-a", "p2-fill-b", "e-fill", "e-short"];
/** Keys of questions free for practice (the bank download shows them). */
const open = ["p1-free", "p1-short-free", "p2-short-free", "p3-ended"];

async function bank(name: string, kind: "practice" | "exam") {
  const { rows } = await t.database.db.query<{ id: number }>("insert into exam_classify (pid, title, kind) values (0, $1, $2) returning id", [`Probe ${name}`, kind]);
  banks[name] = rows[0]!.id;
}

async function question(key: string, bankName: string, type: "fill" | "short") {
  const answer = type === "fill" ? [answerOf(key)] : { keywords: [answerOf(key)], reference: answerOf(key) };
  const { rows } = await t.database.db.query<{ id: number }>(
    "insert into exam_question (classify_id, type, stem, answer, analysis, score) values ($1, $2, $3, $4, $5, 5) returning id",
    [banks[bankName], type, `Stem of ${key}`, JSON.stringify(answer), analysisOf(key)],
  );
  ids[key] = rows[0]!.id;
}

async function paper(name: string, rows: ({ fixed: string } | { draw: string; type: string; count: number })[]) {
  const p = await t.database.db.query<{ id: number }>("insert into exam_paper (title, total_score, pass_score, duration) values ($1, 10, 5, 600) returning id", [`Probe ${name}`]);
  papers[name] = p.rows[0]!.id;
  for (const row of rows) {
    if ("fixed" in row) await t.database.db.query("insert into exam_paper_row (paper_id, kind, question_id, score) values ($1, 'fixed', $2, 5)", [papers[name], ids[row.fixed]]);
    else {
      await t.database.db.query("insert into exam_paper_row (paper_id, kind, classify_id, question_type, count, score) values ($1, 'draw', $2, $3, $4, 5)", [
        papers[name],
        banks[row.draw],
        row.type,
        row.count,
      ]);
    }
  }
}

async function room(name: string, paperName: string, start: number, end: number) {
  const { rows } = await t.database.db.query<{ id: number }>(
    `insert into exam_room (paper_id, title, start_time, end_time, duration, attempts_allowed, pass_score, review_policy)
     values ($1, $2, $3, $4, 600, 2, 5, 'never') returning id`,
    [papers[paperName], `Probe ${name}`, start, end],
  );
  rooms[name] = rows[0]!.id;
}

/** Course content for the course routes' recipes, with a lesson file in storage. */
let lessonFile = "";

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-keys-"));
  t = await createTestApp({ config: { dataDir }, deps: { onRoute: (r) => routes.push(r) } });
  const notes = storeFile(dataDir, "/storage/course/probe/notes.txt", "Lesson notes of the probe course");
  lessonFile = notes.url;
  await createCourse(t.database.db, {
    lessons: [{ freePreview: true, attachments: [{ name: "notes.txt", url: notes.url, size: notes.size }] }, {}],
  });
  await createCourse(t.database.db, { price: 990, lessons: [{ freePreview: true }, {}] });
  await bank("P1", "practice");
  await bank("P2", "practice");
  await bank("P3", "practice");
  await bank("E", "exam");
  await question("p1-fixed", "P1", "fill");
  await question("p1-free", "P1", "fill");
  await question("p1-short-free", "P1", "short");
  await question("p2-fill-a", "P2", "fill");
  await question("p2-fill-b", "P2", "fill");
  await question("p2-short-free", "P2", "short");
  await question("p3-ended", "P3", "fill");
  await question("e-fill", "E", "fill");
  await question("e-short", "E", "short");
  // R1, open now: a fixed practice question and a draw row over P2's fill questions.
  await paper("R1", [{ fixed: "p1-fixed" }, { draw: "P2", type: "fill", count: 1 }]);
  await room("R1", "R1", now() - 60, now() + 86_400);
  // R2, upcoming: draws from the exam-only bank.
  await paper("R2", [{ draw: "E", type: "fill", count: 1 }]);
  await room("R2", "R2", now() + 86_400, now() + 2 * 86_400);
  // R3 has ended: its question is free for practice again.
  await paper("R3", [{ fixed: "p3-ended" }]);
  await room("R3", "R3", now() - 7200, now() - 3600);
  // A mock paper sharing a question with R1 is not a mock paper while R1 has not ended.
  await paper("shared", [{ fixed: "p1-fixed" }, { fixed: "p1-free" }]);
  await paper("mock", [{ fixed: "p1-free" }, { fixed: "p1-short-free" }]);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function newMember() {
  const { rows } = await t.database.db.query<{ id: number }>("insert into member (username, password_hash) values ($1, $2) returning id", [
    `keys_${randomUUID().slice(0, 8)}`,
    await hashPassword("whatever1"),
  ]);
  return { id: rows[0]!.id, token: await issueToken(t.database.db, "user", rows[0]!.id, 3600) };
}

const headers = (token: string) => ({ "ba-user-token": token, "think-lang": "en", "accept-encoding": "identity" });

interface Ctx {
  memberId: number;
  /** Attempt uuids the member's device used (some refused by the server). */
  attemptUuids: string[];
}

/**
 * How to call each GET route with valid parameters: the URLs to request. A route missing here
 * fails the test, so a GET route added later is covered (or deliberately listed) at once.
 */
const recipes: Record<string, (ctx: Ctx) => Promise<string[]> | string[]> = {
  "/api/health": () => ["/api/health"],
  "/api/index/index": () => ["/api/index/index"],
  "/api/user/checkIn": () => ["/api/user/checkIn"],
  "/api/common/clickCaptcha": () => ["/api/common/clickCaptcha?id=keyprobe"],
  "/api/account/overview": () => ["/api/account/overview"],
  "/api/account/profile": () => ["/api/account/profile"],
  "/api/account/balance": () => ["/api/account/balance?page=1&limit=100"],
  "/api/account/integral": () => ["/api/account/integral?page=1&limit=100"],
  "/api/ajax/area": () => ["/api/ajax/area", "/api/ajax/area?province=110000"],
  "/api/ajax/buildSuffixSvg": () => ["/api/ajax/buildSuffixSvg?suffix=pdf"],
  "/api/course/list": () => ["/api/course/list", "/api/course/list?keyword=Stem"],
  "/api/course/my": () => ["/api/course/my"],
  "/api/course/detail": async () => (await column("select id from course order by id")).map((id) => `/api/course/detail?id=${id}`),
  "/api/course/lesson": async () => (await column("select id from lesson order by id")).map((id) => `/api/course/lesson?id=${id}`),
  "/api/exam/catalog": () => ["/api/exam/catalog"],
  "/api/exam/bank": async () => (await column("select id from exam_classify order by id")).map((id) => `/api/exam/bank?id=${id}`),
  "/api/exam/paper": async () => (await column("select id from exam_paper order by id")).map((id) => `/api/exam/paper?id=${id}`),
  "/api/exam/practiceStats": () => ["/api/exam/practiceStats"],
  "/api/exam/questions": async () => {
    const ids = await column("select id from exam_question order by id");
    const urls: string[] = [];
    for (let i = 0; i < ids.length; i += 100) urls.push(`/api/exam/questions?ids=${ids.slice(i, i + 100).join(",")}`);
    return urls;
  },
  "/api/exam/state": () => ["/api/exam/state"],
  // Spaced review: scheduling and mastery only, never a question's content.
  "/api/exam/review/state": () => ["/api/exam/review/state"],
  "/api/exam/review/due": () => ["/api/exam/review/due"],
  "/api/exam/review/mastery": () => ["/api/exam/review/mastery"],
  "/api/push/config": () => ["/api/push/config?device=device-1234"],
  // Notices: a room's title and times, a score; never a question.
  "/api/notice/list": () => ["/api/notice/list"],
  "/api/notice/preference": () => ["/api/notice/preference"],
  "/api/user/face": () => ["/api/user/face"],
  // Reports: the member's transcript (scores and progress, never a question's content).
  "/api/user/transcript": () => ["/api/user/transcript"],
  "/api/user/transcript/export": () => ["/api/user/transcript/export?format=csv"],
  // The face library's model and WASM files (static, the same for everyone).
  "/face-models/*": () => ["/face-models/blazeface.json"],
  "/face-wasm/*": () => ["/face-wasm/tfjs-backend-wasm.wasm"],
  "/api/exam/records": () => ["/api/exam/records?page=1&limit=100"],
  // Certificates: the public check (four facts), the member's own list and PDFs.
  "/api/certificate/verify/:serial": async () => ["/api/certificate/verify/ZZZZZZZZZZZZZZZZ", ...(await column("select serial from certificate order by id")).map((s) => `/api/certificate/verify/${s}`)],
  "/api/certificate/list": () => ["/api/certificate/list"],
  "/api/certificate/download": async () => ["/api/certificate/download?serial=ZZZZZZZZZZZZZZZZ", ...(await column("select serial from certificate order by id")).map((s) => `/api/certificate/download?serial=${s}`)],
  "/api/exam/record": (ctx) => ctx.attemptUuids.map((uuid) => `/api/exam/record?uuid=${uuid}`),
  // Files: a lesson's file and anything uploaded.
  "/storage/*": async () => [lessonFile, ...(await column("select url from attachment order by id")).map(String)],
  // Back-office routes: called with the member's token like the rest (they must refuse it).
  "/admin/index/login": () => ["/admin/index/login"],
  "/admin/index/index": () => ["/admin/index/index"],
  "/admin/dashboard/index": () => ["/admin/dashboard/index"],
  "/admin/user/user/transcript": (ctx) => [`/admin/user/user/transcript?id=${ctx.memberId}`],
  "/admin/user/user/transcriptExport": (ctx) => [`/admin/user/user/transcriptExport?id=${ctx.memberId}&format=csv`],
  "/admin/reports/progress/index": () => ["/admin/reports/progress/index?group=classroom&id=1"],
  "/admin/reports/progress/groups": () => ["/admin/reports/progress/groups?group=classroom"],
  "/admin/reports/progress/export": () => ["/admin/reports/progress/export?group=classroom&id=1&format=csv"],
  "/admin/ajax/area": () => ["/admin/ajax/area"],
  "/admin/ajax/buildSuffixSvg": () => ["/admin/ajax/buildSuffixSvg?suffix=pdf"],
  "/admin/routine/config/index": () => ["/admin/routine/config/index"],
  "/admin/account/profile": () => ["/admin/account/profile"],
  "/admin/ajax/terminal": () => ["/admin/ajax/terminal?command=version.node&uuid=00000000-0000-4000-8000-000000000000"],
  // The code generator (super admins only) and the generated resources' routes.
  "/admin/crud/crud/index": () => ["/admin/crud/crud/index"],
  "/admin/crud/crud/edit": () => ["/admin/crud/crud/edit?id=1"],
  "/admin/crud/crud/export": () => ["/admin/crud/crud/export?id=1"],
  "/admin/ajax/getTablePk": () => ["/admin/ajax/getTablePk?table=exam_question"],
  "/admin/ajax/getTableFieldList": () => ["/admin/ajax/getTableFieldList?table=exam_question&clean=1"],
  "/admin/gen/:name/index": () => ["/admin/gen/book/index"],
  "/admin/gen/:name/edit": () => ["/admin/gen/book/edit?id=1"],
  "/admin/gen/:name/definition": () => ["/admin/gen/book/definition"],
  "/admin/gen/:name/exportList": () => ["/admin/gen/book/exportList?format=csv"],
  // The module market (super admins only), the modules' screens and what members see of them.
  "/admin/moduleStore/moduleStore/index": () => ["/admin/moduleStore/moduleStore/index"],
  "/admin/mod/:module/:table/index": () => ["/admin/mod/notice/notice/index"],
  "/admin/mod/:module/:table/edit": () => ["/admin/mod/notice/notice/edit?id=1"],
  "/admin/mod/:module/:table/definition": () => ["/admin/mod/notice/notice/definition"],
  "/admin/mod/:module/:table/exportList": () => ["/admin/mod/notice/notice/exportList?format=csv"],
  "/api/module/home": () => ["/api/module/home"],
  // The CRUD engine's list, row and list export of every registered resource.
  ...Object.fromEntries(
    resources.flatMap((def) => [
      [`/admin/${def.rule}/index`, () => [`/admin/${def.rule}/index`]],
      [`/admin/${def.rule}/edit`, () => [`/admin/${def.rule}/edit?id=1`]],
      [`/admin/${def.rule}/exportList`, () => [`/admin/${def.rule}/exportList?format=csv`, `/admin/${def.rule}/exportList?format=xlsx`]],
      // Its GET extra actions (e.g. the resources a data-security rule may name).
      ...Object.entries(def.actions ?? {})
        .filter(([, action]) => action.method === "GET")
        .map(([name]) => [`/admin/${def.rule}/${name}`, () => [`/admin/${def.rule}/${name}`]]),
    ]),
  ),
};

async function column(sql: string): Promise<(string | number)[]> {
  const { rows } = await t.database.db.query<Record<string, string | number>>(sql);
  return rows.map((r) => Object.values(r)[0]!);
}

function getRoutes(): string[] {
  const urls = routes.filter((r) => (Array.isArray(r.method) ? r.method : [r.method]).includes("GET")).map((r) => r.url);
  return [...new Set(urls)].sort();
}

/** Every object in a JSON body that carries an answer or analysis, by its id. */
function revealedIds(value: unknown, out: Set<number> = new Set()): Set<number> {
  if (Array.isArray(value)) value.forEach((v) => revealedIds(v, out));
  else if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.id === "number" && ("answer" in o || "analysis" in o)) out.add(o.id);
    Object.values(o).forEach((v) => revealedIds(v, out));
  }
  return out;
}

interface Probe {
  url: string;
  status: number;
  body: string;
}

async function probeAll(token: string, ctx: Ctx): Promise<Probe[]> {
  const out: Probe[] = [];
  for (const route of getRoutes()) {
    const recipe = recipes[route];
    if (!recipe) continue;
    for (const url of await recipe(ctx)) {
      const res = await t.app.inject({ method: "GET", url, headers: headers(token) });
      out.push({ url, status: res.statusCode, body: res.body });
    }
  }
  return out;
}

async function withheldIds(): Promise<Set<number>> {
  return new Set((await column("select question_id from exam_withheld_question")).map(Number));
}

/** The property: no body holds a secret answer or analysis, nor any withheld question with its answer. */
async function expectNothingWithheld(bodies: Probe[]): Promise<void> {
  const withheld = await withheldIds();
  for (const key of secret) expect(withheld.has(ids[key]!), key).toBe(true);
  for (const probe of bodies) {
    expect(probe.status, probe.url).toBeLessThan(500);
    for (const key of secret) {
      expect(probe.body.includes(answerOf(key)), `${probe.url} shows the answer of ${key}`).toBe(false);
      expect(probe.body.includes(analysisOf(key)), `${probe.url} shows the analysis of ${key}`).toBe(false);
    }
    let json: unknown;
    try {
      json = JSON.parse(probe.body);
    } catch {
      continue; // not JSON (a file, an SVG)
    }
    const leaked = [...revealedIds(json)].filter((id) => withheld.has(id));
    expect(leaked, `${probe.url} sends answers of withheld questions`).toEqual([]);
  }
}

const sync = async (token: string, ops: object[]) =>
  (await t.app.inject({ method: "POST", url: "/api/exam/sync", headers: headers(token), payload: { ops } })).json();
const post = async (token: string, url: string, payload: object) => (await t.app.inject({ method: "POST", url, headers: headers(token), payload })).json();
const op = (type: string, payload: object) => ({ id: randomUUID(), type, at: Date.now(), payload });
const mockSubmit = (paperId: number, answers: object = {}) => {
  const attemptId = randomUUID();
  return { attemptId, op: op("attempt.submit", { attemptId, paperId, startedAt: Date.now() - 60_000, submittedAt: Date.now(), answers }) };
};

describe("answer keys of official exams (property over the route table)", () => {
  it("has a recipe for every GET route", () => {
    const routesSeen = getRoutes();
    expect(routesSeen.length).toBeGreaterThan(20);
    expect(routesSeen.filter((r) => !recipes[r])).toEqual([]);
  });

  it("never sends a withheld answer or analysis, before or after the member submits the official exam", async () => {
    const m = await newMember();
    const ctx: Ctx = { memberId: m.id, attemptUuids: [] };
    const bodies: Probe[] = [];
    const record = (url: string, body: unknown) => bodies.push({ url, status: 200, body: JSON.stringify(body) });

    // Practice ops on withheld questions are refused (grading them would tell the key through
    // the wrong book and the practice figures); favourites are harmless.
    const practice = await sync(m.token, [
      op("practice.answer", { questionId: ids["p1-fixed"], bankId: banks.P1, answer: ["x"] }),
      op("practice.answer", { questionId: ids["p2-fill-a"], bankId: banks.P2, answer: ["x"] }),
      op("practice.answer", { questionId: ids["e-fill"], bankId: banks.E, answer: ["x"] }),
      op("practice.answer", { questionId: ids["p1-free"], bankId: banks.P1, answer: ["x"] }),
      op("favourite.set", { questionId: ids["e-short"], on: true }),
      op("favourite.set", { questionId: ids["p1-fixed"], on: true }),
    ]);
    record("sync practice", practice);
    expect(practice.data.results.map((r: { status: string }) => r.status)).toEqual(["rejected", "rejected", "rejected", "applied", "applied", "applied"]);

    // Mock submissions of papers an official exam keeps are refused; a real mock paper is graded.
    const refusedPapers = [papers.R1!, papers.R2!, papers.shared!];
    for (const paperId of refusedPapers) {
      const submit = mockSubmit(paperId);
      ctx.attemptUuids.push(submit.attemptId);
      const res = await sync(m.token, [submit.op]);
      record("sync attempt.submit", res);
      expect(res.data.results[0]).toMatchObject({ status: "rejected", msg: "This paper is kept for an official exam and cannot be taken as a mock exam" });
    }
    const allowed = mockSubmit(papers.mock!, { [ids["p1-free"]!]: ["x"] });
    ctx.attemptUuids.push(allowed.attemptId);
    expect((await sync(m.token, [allowed.op])).data.results[0].status).toBe("applied");

    // The official exam, started and partly answered.
    const start = await post(m.token, "/api/exam/official/start", { roomId: rooms.R1 });
    record("official/start", start);
    expect(start.code).toBe(1);
    ctx.attemptUuids.push(start.data.attempt.uuid);
    const first = start.data.questions[0].id as number;
    record("official/save", await post(m.token, "/api/exam/official/save", { uuid: start.data.attempt.uuid, answers: { [first]: ["guess"] } }));

    const before = await probeAll(m.token, ctx);
    bodies.push(...before);
    await expectNothingWithheld(bodies);

    // The search can see answers: the free questions' answers come with the bank download.
    const all = before.map((p) => p.body).join("\n");
    for (const key of open) expect(all.includes(answerOf(key)), key).toBe(true);
    expect(before.find((p) => p.url === `/api/exam/record?uuid=${allowed.attemptId}`)!.body).toContain(answerOf("p1-free"));

    // Submitted, in a room that shows no answers: still nothing.
    const submitted = await post(m.token, "/api/exam/official/submit", { uuid: start.data.attempt.uuid });
    record("official/submit", submitted);
    expect(submitted.code).toBe(1);
    await expectNothingWithheld([...bodies, ...(await probeAll(m.token, ctx))]);
  });

  it("reveals an official attempt's own questions in its record once submitted, as its room allows, and nowhere else", async () => {
    await t.database.db.query("update exam_room set review_policy = 'submitted' where id = $1", [rooms.R1]);
    try {
      const m = await newMember();
      const start = await post(m.token, "/api/exam/official/start", { roomId: rooms.R1 });
      const uuid = start.data.attempt.uuid as string;
      const own = (start.data.questions as { id: number }[]).map((q) => q.id);
      const open = await t.app.inject({ method: "GET", url: `/api/exam/record?uuid=${uuid}`, headers: headers(m.token) });
      expect([...revealedIds(open.json())]).toEqual([]);
      await post(m.token, "/api/exam/official/submit", { uuid });
      const bodies = await probeAll(m.token, { memberId: m.id, attemptUuids: [uuid] });
      const recordBody = bodies.find((p) => p.url.startsWith("/api/exam/record?"))!;
      expect([...revealedIds(JSON.parse(recordBody.body))].sort()).toEqual([...own].sort());
      expect(recordBody.body).toContain(answerOf("p1-fixed"));
      // Every other body still holds none of them, nor the P2 question the attempt did not draw.
      const notDrawn = ["p2-fill-a", "p2-fill-b"].find((k) => !own.includes(ids[k]!))!;
      expect(recordBody.body).not.toContain(answerOf(notDrawn));
      const others = bodies.filter((p) => p !== recordBody);
      await expectNothingWithheld(others);
    } finally {
      await t.database.db.query("update exam_room set review_policy = 'never' where id = $1", [rooms.R1]);
    }
  });

  it("keeps exam-only banks and official papers out of practice and mock exams", async () => {
    const m = await newMember();
    const catalog = (await t.app.inject({ method: "GET", url: "/api/exam/catalog", headers: headers(m.token) })).json().data;
    const listed = new Set<number>();
    const walk = (nodes: { id: number; questionCount: number; children: never[] }[]) =>
      nodes.forEach((n) => {
        listed.add(n.id);
        walk(n.children);
      });
    walk(catalog.classify);
    expect(listed.has(banks.E!)).toBe(false);
    expect(listed.has(banks.P1!)).toBe(true);
    const counts = new Map<number, number>();
    const count = (nodes: { id: number; questionCount: number; children: never[] }[]) =>
      nodes.forEach((n) => {
        counts.set(n.id, n.questionCount);
        count(n.children);
      });
    count(catalog.classify);
    // P1 lists its two free questions, P2 its short one, P3 (its room ended) its one.
    expect([counts.get(banks.P1!), counts.get(banks.P2!), counts.get(banks.P3!)]).toEqual([2, 1, 1]);
    const paperIds = catalog.papers.map((p: { id: number }) => p.id);
    expect(paperIds).toContain(papers.mock);
    expect(paperIds).toContain(papers.R3);
    for (const name of ["R1", "R2", "shared"]) expect(paperIds, name).not.toContain(papers[name]);
    expect(catalog.rooms.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([rooms.R1, rooms.R2]));

    const exam = await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${banks.E}`, headers: headers(m.token) });
    expect(exam.json()).toMatchObject({ code: 0, msg: "This question bank is kept for exams and cannot be practised" });
    const paper = await t.app.inject({ method: "GET", url: `/api/exam/paper?id=${papers.R1}`, headers: headers(m.token) });
    expect(paper.json()).toMatchObject({ code: 0, msg: "This paper is kept for an official exam and cannot be taken as a mock exam" });

    // When R1 ends, its questions are free for practice again: the bank's version changes, so
    // devices download it again.
    const p1Before = (await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${banks.P1}`, headers: headers(m.token) })).json().data;
    await t.database.db.query("update exam_room set end_time = $1 where id = $2", [now() - 1, rooms.R1]);
    try {
      const p1After = (await t.app.inject({ method: "GET", url: `/api/exam/bank?id=${banks.P1}`, headers: headers(m.token) })).json().data;
      expect(p1After.bank.version).not.toBe(p1Before.bank.version);
      expect(p1After.questions.map((q: { id: number }) => q.id)).toContain(ids["p1-fixed"]);
      expect(JSON.stringify(p1After)).toContain(answerOf("p1-fixed"));
    } finally {
      await t.database.db.query("update exam_room set end_time = $1 where id = $2", [now() + 86_400, rooms.R1]);
    }
  });
});
