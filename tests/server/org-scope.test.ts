import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceDef } from "../../src/server/crud/resource.ts";
import { resources } from "../../src/server/crud/resources/index.ts";
import { headTeacherResource } from "../../src/server/crud/resources/org.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers, type Method } from "../helpers/call.ts";
import { createAdmin, createClassroom, createCompany, createMember, createOfficialExam, type TestAdmin } from "../helpers/factories.ts";

/**
 * Company-scoped admins (crud/scope.ts), over EVERY registered resource (from the
 * registry, not hand-picked): an admin with `is_company` holding every rule reads and writes
 * only their company's rows (and those of companies under it) — by list, remote select, edit,
 * del, export and the other extra actions, and by a guessed id — and never another company's.
 * A resource without company data is either shared content (read, never written) or closed to
 * them; a resource with company data must be scoped (and have a fixture here).
 */

let t: TestApp;
let root: TestAdmin;
let boss: TestAdmin;
const companies = { a: 0, sub: 0, b: 0 };
const NO_ROW = 2_000_000_000;

/** The answers' data: a list's rows, a form's row, or fields read one by one. */
type Data = { list?: { id: number }[]; row?: Record<string, unknown> } & Record<string, unknown>;

/** Two rows of a scoped resource: `mine` in the admin's company (or under it), `theirs` in another. */
interface Pair {
  mine: number;
  theirs: number;
  /** A valid edit body of a row (resources with `edit`). */
  editBody?(id: number): Record<string, unknown>;
  /** An add body naming the other company (resources that fill the company). */
  addTheirs?(): Record<string, unknown>;
  /** An add body naming no company: the admin's is filled in. */
  addMine?(): Record<string, unknown>;
}

async function exam(company: number) {
  const db = t.database.db;
  const member = await createMember(db, { companyId: company });
  const official = await createOfficialExam(db, { singles: 1, judges: 0, draw: 1 });
  const attempt = (
    await db.query<{ id: number }>(
      `insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, questions, answers, started_at, deadline, submitted_at, status)
       values (gen_random_uuid()::text, $1, 'official', $2, $3, $4, '{}', 0, 600, 10, 'submitted') returning id`,
      [member.id, official.paperId, official.roomId, JSON.stringify([{ id: official.questionIds[0], score: 2 }])],
    )
  ).rows[0]!.id;
  return { member, attempt, question: official.questionIds[0]!, paper: official.paperId };
}

const pairs: Record<string, () => Promise<Pair>> = {
  "org/company": async () => ({
    mine: companies.sub,
    theirs: companies.b,
    editBody: (id) => ({ id, pid: companies.a, name: `edited ${id}`, weigh: 0, status: "enable" }),
  }),
  "org/classroom": async () => ({
    mine: await createClassroom(t.database.db, { companyId: companies.sub }),
    theirs: await createClassroom(t.database.db, { companyId: companies.b }),
    editBody: (id) => ({ id, name: `edited ${id}` }),
    addTheirs: () => ({ name: "theirs", company_id: companies.b }),
    addMine: () => ({ name: "mine" }),
  }),
  "user/user": async () => ({
    mine: (await createMember(t.database.db, { companyId: companies.sub })).id,
    theirs: (await createMember(t.database.db, { companyId: companies.b })).id,
    editBody: (id) => ({ id, username: `edited${id}`, password: "" }),
    addTheirs: () => ({ username: `theirs${Date.now() % 100000}`, password: "secret-123", company_id: companies.b }),
    addMine: () => ({ username: `mine${Date.now() % 100000}`, password: "secret-123" }),
  }),
  "org/headTeacher": async () => ({
    mine: (await createAdmin(t.database.db, { companyId: companies.sub })).id,
    theirs: (await createAdmin(t.database.db, { companyId: companies.b })).id,
  }),
  "user/moneyLog": () => accountLogs("user_money_log", "money"),
  "user/scoreLog": () => accountLogs("user_score_log", "score"),
  "user/notice": async () => {
    const row = async (company: number) => {
      const member = await createMember(t.database.db, { companyId: company });
      return (await t.database.db.query<{ id: number }>("insert into notice (user_id, kind, ref, create_time) values ($1, 'room_open', '1', 1) returning id", [member.id])).rows[0]!.id;
    };
    return { mine: await row(companies.sub), theirs: await row(companies.b) };
  },
  "auth/adminLog": async () => {
    const row = async (company: number) => {
      const writer = await createAdmin(t.database.db, { companyId: company });
      return (await t.database.db.query<{ id: number }>("insert into admin_log (admin_id, username, title, url, method, data, ip, useragent) values ($1, $2, 't', '/x', 'POST', '{}', '', '') returning id", [writer.id, writer.username])).rows[0]!.id;
    };
    return { mine: await row(companies.sub), theirs: await row(companies.b) };
  },
  "exam/room": async () => {
    const room = async (company: number) => {
      const { roomId } = await createOfficialExam(t.database.db, { singles: 1, judges: 0, draw: 1 });
      await t.database.db.query("update exam_room set company_id = $1 where id = $2", [company, roomId]);
      return roomId;
    };
    const paper = (await createOfficialExam(t.database.db, { singles: 1, judges: 0, draw: 1 })).paperId;
    const body = { paper_id: paper, title: "r", start_time: 1000, end_time: 2000, duration: 600, pass_score: 1 };
    return {
      mine: await room(companies.sub),
      theirs: await room(companies.b),
      editBody: (id) => ({ id, ...body }),
      addTheirs: () => ({ ...body, company_id: companies.b }),
      addMine: () => body,
    };
  },
  "exam/marking": async () => {
    const mark = async (company: number) => {
      const e = await exam(company);
      return (await t.database.db.query<{ id: number }>("insert into exam_mark (attempt_id, question_id) values ($1, $2) returning id", [e.attempt, e.question])).rows[0]!.id;
    };
    return { mine: await mark(companies.sub), theirs: await mark(companies.b) };
  },
  "exam/faceReview": async () => {
    const db = t.database.db;
    const rule = (await db.query<{ id: number }>("insert into face_rule (name, before_start, max_failures, action) values ('scope', true, 3, 'flag') returning id")).rows[0]!.id;
    const attempt = async (company: number) => {
      const e = await exam(company);
      await db.query("update exam_room set face_rule_id = $1 where id = (select room_id from exam_attempt where id = $2)", [rule, e.attempt]);
      return e.attempt;
    };
    return { mine: await attempt(companies.sub), theirs: await attempt(companies.b) };
  },
  "exam/certificate": async () => {
    const certificate = async (company: number) => {
      const member = await createMember(t.database.db, { companyId: company });
      return (await t.database.db.query<{ id: number }>(
        "insert into certificate (serial, user_id, title, member_name, text_color, accent_color, issued_at) values ($1, $2, 't', 'n', '#000000', '#000000', 1) returning id",
        [`SCOPE${company}${member.id}`.replace(/[^23456789A-HJ-NP-Z]/g, "Z").padEnd(16, "Z"), member.id],
      )).rows[0]!.id;
    };
    return { mine: await certificate(companies.sub), theirs: await certificate(companies.b) };
  },
  "exam/lateAnswer": async () => {
    const late = async (company: number) => {
      const e = await exam(company);
      return (await t.database.db.query<{ id: number }>("insert into exam_late_answer (attempt_id, question_id, answer, received_at) values ($1, $2, '\"A\"', 1) returning id", [e.attempt, e.question])).rows[0]!.id;
    };
    return { mine: await late(companies.sub), theirs: await late(companies.b) };
  },
};

async function accountLogs(table: string, column: string): Promise<Pair> {
  const row = async (company: number) => {
    const member = await createMember(t.database.db, { companyId: company });
    return (await t.database.db.query<{ id: number }>(`insert into ${table} (user_id, ${column}, before, after) values ($1, 5, 0, 5) returning id`, [member.id])).rows[0]!.id;
  };
  const theirMember = (await createMember(t.database.db, { companyId: companies.b })).id;
  const myMember = (await createMember(t.database.db, { companyId: companies.sub })).id;
  return { mine: await row(companies.sub), theirs: await row(companies.b), addTheirs: () => ({ user_id: theirMember, [column]: 1 }), addMine: () => ({ user_id: myMember, [column]: 1 }) };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  root = await createAdmin(db);
  companies.a = await createCompany(db, { name: "A" });
  companies.sub = await createCompany(db, { name: "A1", pid: companies.a });
  companies.b = await createCompany(db, { name: "B" });
  // A company admin of A holding every rule (a group granting "*"; not a super admin).
  boss = await createAdmin(db, { companyId: companies.a });
  const group = (await db.query<{ id: number }>("insert into admin_group (name, rules) values ('all', '*') returning id")).rows[0]!.id;
  await db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [boss.id, group]);
});
afterAll(() => t.close());

const { send } = callers(() => t.app);
const call = (who: TestAdmin, method: Method, url: string, payload?: Record<string, unknown>) => send<Data>(who, method, url, payload);
const listIds = async (who: TestAdmin, def: ResourceDef, query = "") => (await call(who, "GET", `/admin/${def.rule}/index?limit=100${query}`)).data.list?.map((r) => r.id) ?? [];
const exists = async (def: ResourceDef, id: number) => (await t.database.db.query(`select 1 from ${def.table} where id = $1`, [id])).rows.length > 0;

/**
 * Actions that name no row of their resource (a file in, a template out): no other company's row
 * to refuse. A company admin's import is held to their company by its own test (members-import).
 */
const ROWLESS = new Set(["user/user/import", "user/user/template"]);

/** Every write route of a resource, with a body that passes its schema where one is given. */
function writes(def: ResourceDef, id: number, body?: Record<string, unknown>): [string, "POST" | "DELETE", string, Record<string, unknown>?][] {
  const list: [string, "POST" | "DELETE", string, Record<string, unknown>?][] = [];
  if (def.add) list.push(["add", "POST", `/admin/${def.rule}/add`, body ?? {}]);
  if (def.edit) list.push(["edit", "POST", `/admin/${def.rule}/edit`, body ? { ...body, id } : { id }]);
  if (def.del) list.push(["del", "DELETE", `/admin/${def.rule}/del?ids[]=${id}`]);
  if (def.sortable) list.push(["sortable", "POST", `/admin/${def.rule}/sortable`, { id, targetId: id + 1 }]);
  for (const [name, action] of Object.entries(def.actions ?? {}))
    if (action.method === "POST" && !ROWLESS.has(`${def.rule}/${name}`)) list.push([name, "POST", `/admin/${def.rule}/${name}`, { id, ids: [id], user_ids: [id], score: 0, comment: "", decision: "accepted", image: "data:image/jpeg;base64,AAAA", questionIds: [id], override_id: id, reason: "scope probe" }]);
  return list;
}

describe.each(resources.map((def) => [def.rule, def] as const))("resource %s, for a company admin", (rule, def) => {
  if (def.company === undefined) {
    it("is closed: every route refused as no permission, reads and writes alike", async () => {
      const routes: [string, "GET" | "POST" | "DELETE", string, Record<string, unknown>?][] = [
        ["index", "GET", `/admin/${rule}/index`],
        ["edit", "GET", `/admin/${rule}/edit?id=1`],
        ...writes(def, 1),
        ...Object.entries(def.actions ?? {}).flatMap(([name, a]) => (a.method === "GET" ? [[name, "GET", `/admin/${rule}/${name}?id=1`] as [string, "GET", string]] : [])),
      ];
      for (const [name, method, url, payload] of routes) expect((await call(boss, method, url, payload)).code, `${name}`).toBe(401);
      // The super admin is not affected.
      expect((await call(root, "GET", `/admin/${rule}/index`)).code).toBe(1);
    });
  } else if (def.company === "read") {
    it("is shared content: listed, never written", async () => {
      expect((await call(boss, "GET", `/admin/${rule}/index`)).code).toBe(1);
      for (const [name, method, url, payload] of writes(def, 1)) expect((await call(boss, method, url, payload)).code, name).toBe(401);
    });
  } else {
    it("is scoped: their company's rows only, by list, select, edit, del, export, extra actions and guessed ids", async () => {
      const make = pairs[rule];
      expect(make, `a company-scoped resource needs a pair of rows in this test: ${rule}`).toBeDefined();
      const pair = await make!();
      const within = `&search[0][field]=id&search[0][operator]=IN&search[0][val]=${pair.mine},${pair.theirs}`;
      expect((await listIds(root, def, within)).sort()).toEqual([pair.mine, pair.theirs].sort());
      expect(await listIds(boss, def, within)).toEqual([pair.mine]);
      // A remote select preloading the other company's row gets nothing of it.
      expect(await listIds(boss, def, `&select=1&initValue=${pair.theirs}`)).not.toContain(pair.theirs);
      // Read by a guessed id: the same answer as a row that does not exist.
      const guessed = await call(boss, "GET", `/admin/${rule}/edit?id=${pair.theirs}`);
      const missing = await call(boss, "GET", `/admin/${rule}/edit?id=${NO_ROW}`);
      expect(guessed.code).toBe(0);
      expect(guessed.msg).toBe(missing.msg);
      expect((await call(boss, "GET", `/admin/${rule}/edit?id=${pair.mine}`)).code).toBe(1);
      // Extra reads (results, export, members...) of the other company's row.
      for (const [name, action] of Object.entries(def.actions ?? {})) {
        if (action.method !== "GET" || ROWLESS.has(`${rule}/${name}`)) continue;
        const res = await t.app.inject({ method: "GET", url: `/admin/${rule}/${name}?id=${pair.theirs}`, headers: boss.headers });
        expect(res.headers["content-type"], name).toMatch(/json/);
        expect(res.json().code, name).toBe(0);
      }
      // Writes naming the other company's row: refused, the row unchanged and still there.
      const before = (await call(root, "GET", `/admin/${rule}/edit?id=${pair.theirs}`)).data.row;
      for (const [name, method, url, payload] of writes(def, pair.theirs, pair.editBody?.(pair.theirs))) {
        if (name === "add") continue;
        const answer = await call(boss, method, url, payload);
        expect(answer.code, name).toBe(0);
        expect(answer.msg, name).toBe(missing.msg);
      }
      expect(await exists(def, pair.theirs)).toBe(true);
      expect((await call(root, "GET", `/admin/${rule}/edit?id=${pair.theirs}`)).data.row).toEqual(before);
      // Their own row can be edited.
      if (def.edit && pair.editBody) {
        const edited = await call(boss, "POST", `/admin/${rule}/edit`, pair.editBody(pair.mine));
        expect(edited.code, edited.msg).toBe(1);
      }
      // An add into the other company is refused; one naming no company lands in theirs.
      if (def.add && pair.addTheirs) {
        const count = async () => (await t.database.db.query<{ n: number }>(`select count(*)::int as n from ${def.table}`)).rows[0]!.n;
        const n = await count();
        expect((await call(boss, "POST", `/admin/${rule}/add`, pair.addTheirs())).code).toBe(0);
        expect(await count()).toBe(n);
        const added = await call(boss, "POST", `/admin/${rule}/add`, pair.addMine!());
        expect(added.code, added.msg).toBe(1);
        expect(await listIds(boss, def, `&search[0][field]=id&search[0][val]=${added.data.id as number}`)).toEqual([added.data.id]);
      }
      // The super admin still sees both.
      expect((await listIds(root, def, within)).length).toBe(2);
    });
  }
});

describe("the rest of the back office, for a company admin", () => {
  it("refuses every named-rule route outside the engine that does not keep them inside their company (from the route table)", async () => {
    const closed = t.app.adminRoutes.filter((r) => typeof r.adminRule === "string" && r.adminRule !== "*" && !r.companyAdmins && r.method !== "HEAD");
    expect(closed.map((r) => r.url)).toContain("/admin/routine/config/edit");
    for (const route of closed) {
      const res = await t.app.inject({ method: route.method as "GET" | "POST", url: route.url, headers: boss.headers, ...(route.method === "POST" ? { payload: {} } : {}) });
      expect(res.json().code, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it("sees in their menus only screens they may open: every menu's list answers them, closed ones are not listed", async () => {
    interface MenuNode { name: string; type: string; children: MenuNode[] }
    const flat = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
    const theirs = flat((await call(boss, "GET", "/admin/index/index")).data.menus as unknown as MenuNode[]);
    const everything = flat((await call(root, "GET", "/admin/index/index")).data.menus as unknown as MenuNode[]);
    const names = theirs.map((n) => n.name);
    // The admins screen is closed to them (auth/admin: no company declaration); members are theirs.
    expect(everything.map((n) => n.name)).toEqual(expect.arrayContaining(["auth/admin", "routine/config"]));
    expect(names).not.toContain("auth/admin");
    expect(names).not.toContain("routine/config");
    expect(names).toEqual(expect.arrayContaining(["user/user", "org/classroom"]));
    expect(names.length).toBeLessThan(everything.length);
    // No folder left empty.
    for (const node of theirs) if (node.type === "menu_dir") expect(node.children.length, node.name).toBeGreaterThan(0);
    // Every screen they see with a list route of its own lists for them (no "no permission").
    const lists = new Set(t.app.adminRoutes.filter((r) => r.method === "GET").map((r) => r.url));
    let opened = 0;
    for (const node of theirs.filter((n) => n.type === "menu")) {
      const url = `/admin/${node.name}/index`;
      if (!lists.has(url)) continue;
      opened += 1;
      expect((await call(boss, "GET", url)).code, url).not.toBe(401);
    }
    expect(opened).toBeGreaterThan(3);
  });

  it("counts only their company's members on the dashboard", async () => {
    await createMember(t.database.db, { companyId: companies.b });
    const mine = (await t.database.db.query<{ n: number }>("select count(*)::int as n from member where company_id in (select company_subtree($1))", [companies.a])).rows[0]!.n;
    const all = (await t.database.db.query<{ n: number }>("select count(*)::int as n from member")).rows[0]!.n;
    expect((await call(boss, "GET", "/admin/dashboard/index")).data.members).toBe(mine);
    expect((await call(root, "GET", "/admin/dashboard/index")).data.members).toBe(all);
    expect(mine).toBeLessThan(all);
  });
});

describe("the company admin's own bulk actions", () => {
  it("cannot open their room to another company's classroom or company, nor link another company's room to their classroom", async () => {
    const db = t.database.db;
    const { roomId, paperId } = await createOfficialExam(db, { singles: 1, judges: 0, draw: 1 });
    await db.query("update exam_room set company_id = $1 where id = $2", [companies.sub, roomId]);
    const theirRoom = (await createOfficialExam(db, { singles: 1, judges: 0, draw: 1 })).roomId;
    await db.query("update exam_room set company_id = $1 where id = $2", [companies.b, theirRoom]);
    const myClass = await createClassroom(db, { companyId: companies.sub });
    const theirClass = await createClassroom(db, { companyId: companies.b });
    const room = { id: roomId, paper_id: paperId, title: "r", start_time: 1000, end_time: 2000, duration: 600, pass_score: 1 };
    const access = async () => (await db.query<{ n: number }>("select count(*)::int as n from org_access where room_id = $1", [roomId])).rows[0]!.n;
    expect((await call(boss, "POST", "/admin/exam/room/edit", { ...room, classroom_ids: [theirClass] })).code).toBe(0);
    expect((await call(boss, "POST", "/admin/exam/room/edit", { ...room, company_ids: [companies.b] })).code).toBe(0);
    expect(await access()).toBe(0);
    const mine = await call(boss, "POST", "/admin/exam/room/edit", { ...room, classroom_ids: [myClass], company_ids: [companies.sub] });
    expect(mine.code, mine.msg).toBe(1);
    expect(await access()).toBe(2);
    // Their classroom may list their own room, never another company's.
    const classBody = { id: myClass, name: "mine", company_id: companies.sub };
    expect((await call(boss, "POST", "/admin/org/classroom/edit", { ...classBody, room_ids: [theirRoom] })).code).toBe(0);
    expect((await db.query("select 1 from org_access where classroom_id = $1 and room_id = $2", [myClass, theirRoom])).rows).toHaveLength(0);
    const linked = await call(boss, "POST", "/admin/org/classroom/edit", { ...classBody, room_ids: [roomId] });
    expect(linked.code, linked.msg).toBe(1);
    // The super admin may assign across companies.
    expect((await call(root, "POST", "/admin/exam/room/edit", { ...room, classroom_ids: [theirClass] })).code).toBe(1);
  });

  it("picks a head teacher only among their company's admins: the picker lists them, the server refuses another on add and edit", async () => {
    const db = t.database.db;
    const myTeacher = await createAdmin(db, { companyId: companies.sub });
    const theirTeacher = await createAdmin(db, { companyId: companies.b });
    const superTeacher = await createAdmin(db);
    // The picker (a remote select) of the classroom form: their company's admins only; admins themselves stay closed.
    const picked = await listIds(boss, headTeacherResource, "&select=1");
    expect(picked).toContain(myTeacher.id);
    expect(picked).toContain(boss.id);
    expect(picked).not.toContain(theirTeacher.id);
    expect(picked).not.toContain(superTeacher.id);
    expect((await listIds(root, headTeacherResource, "&select=1&quickSearch=" + theirTeacher.username))).toEqual([theirTeacher.id]);
    expect((await call(boss, "GET", "/admin/auth/admin/index?select=1")).code).toBe(401);

    const count = async () => (await db.query<{ n: number }>("select count(*)::int as n from classroom")).rows[0]!.n;
    const n = await count();
    for (const head of [theirTeacher.id, superTeacher.id, NO_ROW]) {
      const refused = await call(boss, "POST", "/admin/org/classroom/add", { name: "headed", head_admin_id: head });
      expect(refused.code).toBe(0);
      expect(refused.msg).toBe("The head teacher must be an admin of your company");
      expect((refused.data as { fields?: Record<string, string> }).fields?.head_admin_id).toBe(refused.msg);
    }
    expect(await count()).toBe(n);
    const added = await call(boss, "POST", "/admin/org/classroom/add", { name: "headed", head_admin_id: myTeacher.id });
    expect(added.code, added.msg).toBe(1);
    const id = added.data.id as number;
    const head = async () => (await db.query<{ head_admin_id: number | null }>("select head_admin_id from classroom where id = $1", [id])).rows[0]!.head_admin_id;
    expect(await head()).toBe(myTeacher.id);

    const edited = await call(boss, "POST", "/admin/org/classroom/edit", { id, company_id: companies.a, name: "headed", head_admin_id: theirTeacher.id });
    expect(edited.code).toBe(0);
    expect(edited.msg).toBe("The head teacher must be an admin of your company");
    expect(await head()).toBe(myTeacher.id);
    expect((await call(boss, "POST", "/admin/org/classroom/edit", { id, company_id: companies.a, name: "headed", head_admin_id: boss.id })).code).toBe(1);
    expect(await head()).toBe(boss.id);

    // The super admin names anyone; a company admin may still save a classroom whose head teacher the super admin chose.
    expect((await call(root, "POST", "/admin/org/classroom/edit", { id, company_id: companies.a, name: "headed", head_admin_id: theirTeacher.id })).code).toBe(1);
    expect(await head()).toBe(theirTeacher.id);
    // Their form names that head teacher (the picker does not list them).
    expect((await call(boss, "GET", `/admin/org/classroom/edit?id=${id}`)).data.row).toMatchObject({ head_admin_id: theirTeacher.id, head_label: theirTeacher.username });
    const kept = await call(boss, "POST", "/admin/org/classroom/edit", { id, company_id: companies.a, name: "renamed", head_admin_id: theirTeacher.id });
    expect(kept.code, kept.msg).toBe(1);
    expect((await call(boss, "POST", "/admin/org/classroom/edit", { id, company_id: companies.a, name: "renamed", head_admin_id: null })).code).toBe(1);
    expect(await head()).toBe(null);
    expect((await call(boss, "POST", "/admin/org/classroom/edit", { id, company_id: companies.a, name: "renamed", head_admin_id: theirTeacher.id })).code).toBe(0);
    expect(await head()).toBe(null);
  });

  it("cannot put another company's member in their classroom", async () => {
    const mine = await createClassroom(t.database.db, { companyId: companies.a });
    const theirMember = await createMember(t.database.db, { companyId: companies.b });
    const myMember = await createMember(t.database.db, { companyId: companies.sub });
    expect((await call(boss, "POST", "/admin/org/classroom/addMembers", { id: mine, user_ids: [theirMember.id] })).code).toBe(0);
    expect((await call(boss, "POST", "/admin/org/classroom/addMembers", { id: mine, user_ids: [myMember.id] })).code).toBe(1);
    const { rows } = await t.database.db.query<{ user_id: number }>("select user_id from classroom_member where classroom_id = $1", [mine]);
    expect(rows.map((r) => r.user_id)).toEqual([myMember.id]);
  });
});

describe("a company admin's own company: the root of their reach stays where it is", () => {
  it("refuses moving, reordering or deleting their own company and placing any company outside their subtree; the admin above may still move it", async () => {
    const db = t.database.db;
    const parent = await createCompany(db, { name: "Parent" });
    const own = await createCompany(db, { name: "Own", pid: parent });
    const under = await createCompany(db, { name: "Under", pid: own });
    const other = await createCompany(db, { name: "Other" });
    const admin = await createAdmin(db, { companyId: own });
    const above = await createAdmin(db, { companyId: parent });
    const group = (await db.query<{ id: number }>("insert into admin_group (name, rules) values ('all of own', '*') returning id")).rows[0]!.id;
    await db.query("insert into admin_group_access (uid, group_id) select unnest($1::int[]), $2", [[admin.id, above.id], group]);
    const pidOf = async (id: number) => (await db.query<{ pid: number | null }>("select pid from company where id = $1", [id])).rows[0]!.pid ?? 0;
    const edit = (who: TestAdmin, id: number, pid: number, name = `c${id}`) => call(who, "POST", "/admin/org/company/edit", { id, pid, name, weigh: 0, status: "enable" });

    // Their own company under another company, or lifted to the top: refused beside the field, nothing moved.
    for (const pid of [other, 0]) {
      const answer = await edit(admin, own, pid);
      expect(answer.code, `pid ${pid}`).toBe(0);
      expect((answer.data as { fields?: Record<string, string> } | null)?.fields?.pid, `pid ${pid}`).toMatch(/own company/);
      expect(await pidOf(own)).toBe(parent);
    }
    // Renaming it where it is: allowed.
    expect((await edit(admin, own, parent, "Own renamed")).code).toBe(1);
    // A company under theirs: moved only inside their subtree.
    for (const pid of [other, 0, parent]) {
      expect((await edit(admin, under, pid)).code, `pid ${pid}`).toBe(0);
      expect(await pidOf(under)).toBe(own);
    }
    const count = async () => (await db.query<{ n: number }>("select count(*)::int as n from company")).rows[0]!.n;
    const n = await count();
    for (const pid of [other, 0, parent]) expect((await call(admin, "POST", "/admin/org/company/add", { pid, name: "new", weigh: 0, status: "enable" })).code, `add under ${pid}`).toBe(0);
    expect(await count()).toBe(n);
    expect((await call(admin, "POST", "/admin/org/company/add", { pid: under, name: "new", weigh: 0, status: "enable" })).code).toBe(1);
    // Reordering or deleting their own company: refused.
    expect((await call(admin, "POST", "/admin/org/company/sortable", { id: own, targetId: under })).code).toBe(0);
    expect((await call(admin, "DELETE", `/admin/org/company/del?ids[]=${own}`)).code).toBe(0);
    expect(await pidOf(own)).toBe(parent);
    // The admin of the company above places it inside their own subtree.
    expect((await edit(above, own, parent, "Own")).code).toBe(1);
    expect((await edit(above, own, other)).code).toBe(0);
    expect(await pidOf(own)).toBe(parent);
  });
});
