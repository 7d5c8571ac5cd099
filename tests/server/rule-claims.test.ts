import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenDesign } from "../../src/shared/admin/codegen.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers, type Caller, type Method } from "../helpers/call.ts";
import { createAdmin, type TestAdmin } from "../helpers/factories.ts";

/**
 * A rule name claimed before it exists. A module install and a first generate
 * make their own rule rows and refuse (naming the rule) a row already there; a non-super admin
 * may not rename a rule at all, and no one names a rule under `mod/` or `gen/` by hand.
 */

/** The answers' data, read field by field. */
type Data = Record<string, unknown> & { total?: number };

let t: TestApp;
let modulesDir: string;
let root: TestAdmin;
let staff: TestAdmin;
let heldId = 0;

const { send } = callers(() => t.app, { refuse5xx: true });
const call = (who: Caller, method: Method, url: string, payload?: object) => send<Data>(who, method, url, payload);
const query = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) => (await t.database.db.query<T>(text, params)).rows;
const ruleBody = (name: string, over: Record<string, unknown> = {}) => ({ pid: 0, type: "menu", title: "报表", title_en: "Reports", name, path: name, menu_type: "tab", component: "reports/x", ...over });
const nameOf = async (id: number) => (await query<{ name: string }>("select name from admin_rule where id = $1", [id]))[0]?.name;

beforeAll(async () => {
  modulesDir = mkdtempSync(path.join(tmpdir(), "rule-claims-"));
  t = await createTestApp({ config: { modulesDir } });
  root = await createAdmin(t.database.db);
  staff = await createAdmin(t.database.db, { isSuper: false });
  // The staff's group: the rules screen, and one menu rule of its own (made by the super admin).
  heldId = (await call(root, "POST", "/admin/auth/rule/add", ruleBody("reports/held"))).data.id as number;
  const { rows } = await t.database.db.query<{ id: number }>(
    "insert into admin_group (name, rules) values ('rule editors', (select string_agg(id::text, ',') from admin_rule where name like 'auth/rule%' or id = $1)) returning id",
    [heldId],
  );
  await t.database.db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [staff.id, rows[0]!.id]);
});
afterAll(async () => {
  await t?.close();
  rmSync(modulesDir, { recursive: true, force: true });
});

describe("the rules screen: names are not claimed", () => {
  it("refuses a non-super admin's rename of a rule it holds, into a module's name or any other", async () => {
    for (const name of ["mod/notice/notice/index", "gen/claim/index", "mod", "reports/renamed"]) {
      const res = await call(staff, "POST", "/admin/auth/rule/edit", { id: heldId, ...ruleBody(name) });
      expect({ name, code: res.code }).toEqual({ name, code: 0 });
      expect(res.msg).toMatch(name === "reports/renamed" ? /^Only a super admin can rename a rule$/ : /"mod\/" and "gen\/"/);
    }
    expect(await nameOf(heldId)).toBe("reports/held");
    // The rest of the rule stays editable by its holder.
    expect((await call(staff, "POST", "/admin/auth/rule/edit", { id: heldId, ...ruleBody("reports/held", { title: "月报" }) })).code).toBe(1);
    expect((await query("select title from admin_rule where id = $1", [heldId]))[0]).toEqual({ title: "月报" });
  });

  it("refuses anyone a new rule under mod/ or gen/, and a super admin's rename into or out of them", async () => {
    const before = (await query<{ n: number }>("select count(*)::int as n from admin_rule"))[0]!.n;
    for (const who of [staff, root]) {
      for (const name of ["mod/notice/notice/index", "gen/claim", "gen/claim/add", "mod"]) {
        const res = await call(who, "POST", "/admin/auth/rule/add", ruleBody(name));
        expect({ name, code: res.code, msg: res.msg }).toEqual({ name, code: 0, msg: 'Rule names under "mod/" and "gen/" are made by the module market and the code generator only' });
      }
    }
    expect((await query<{ n: number }>("select count(*)::int as n from admin_rule"))[0]!.n).toBe(before);
    expect((await call(root, "POST", "/admin/auth/rule/edit", { id: heldId, ...ruleBody("mod/notice") })).code).toBe(0);
    // Other names stay open: a staff member adds a menu, a super admin renames one.
    const added = await call(staff, "POST", "/admin/auth/rule/add", ruleBody("reports/staff"));
    expect(added.code, added.msg).toBe(1);
    expect((await call(root, "POST", "/admin/auth/rule/edit", { id: added.data.id, ...ruleBody("reports/staff2") })).code).toBe(1);
    expect(await nameOf(added.data.id as number)).toBe("reports/staff2");
  });
});

describe("a module install never adopts a rule it did not make", () => {
  it("refuses the install while a row has one of the module's rule names, naming it; installs once it is gone", async () => {
    // A name claimed before the fix (or written by hand): the staff's held rule under the notice's name.
    await query("update admin_rule set name = 'mod/notice/notice/index' where id = $1", [heldId]);
    const res = await call(root, "POST", "/admin/moduleStore/moduleStore/install", { name: "notice" });
    expect(res).toMatchObject({ code: 0, msg: 'The rule "mod/notice/notice/index" already exists but was not made here: delete it or rename it first' });
    expect(await query("select name from module_install")).toEqual([]);
    expect(await query("select id from admin_rule where name like 'mod/%' and id <> $1", [heldId])).toEqual([]);
    expect((await call(staff, "GET", "/admin/mod/notice/notice/index")).code).not.toBe(1);

    await query("update admin_rule set name = 'reports/held' where id = $1", [heldId]);
    const ok = await call(root, "POST", "/admin/moduleStore/moduleStore/install", { name: "notice", demo: true });
    expect(ok.code, ok.msg).toBe(1);
    // Fresh rows: the staff's group grants none of them.
    expect((await call(staff, "GET", "/admin/mod/notice/notice/index")).code).toBe(401);
    expect((await call(root, "GET", "/admin/mod/notice/notice/index")).code).toBe(1);
  });
});

describe("a generated resource never adopts a rule it did not make", () => {
  const design: GenDesign = {
    name: "claim",
    title: "Claims",
    titleEn: "Claims",
    fields: [{ name: "label", type: "string", length: 0, default: "", comment: "", index: "none", required: false, options: [], optionLabels: {}, form: "text", list: true, search: "none" }],
    quickSearch: [],
    sortable: false,
    recycle: false,
    sensitive: [],
  };

  it("refuses the first generate while a row has one of its rule names; generates again over its own rows", async () => {
    await query("update admin_rule set name = 'gen/claim/index' where id = $1", [heldId]);
    const res = await call(root, "POST", "/admin/crud/crud/generate", { design });
    expect(res).toMatchObject({ code: 0, msg: 'The rule "gen/claim/index" already exists but was not made here: delete it or rename it first' });
    expect((await query<{ ok: boolean }>("select to_regclass('gen_claim') is not null as ok"))[0]!.ok).toBe(false);
    expect(await query("select id from crud_design where name = 'claim'")).toEqual([]);
    expect((await call(staff, "GET", "/admin/gen/claim/index")).code).not.toBe(1);

    await query("update admin_rule set name = 'reports/held' where id = $1", [heldId]);
    const ok = await call(root, "POST", "/admin/crud/crud/generate", { design });
    expect(ok.code, ok.msg).toBe(1);
    expect((await call(staff, "GET", "/admin/gen/claim/index")).code).toBe(401);
    // Generating the same design again keeps its own rows (groups granted them keep them).
    const ids = await query("select id, name from admin_rule where name like 'gen/claim%' order by name");
    const again = await call(root, "POST", "/admin/crud/crud/generate", { id: ok.data.id, design: { ...design, title: "Claims 2" } });
    expect(again.code, again.msg).toBe(1);
    expect(await query("select id, name from admin_rule where name like 'gen/claim%' order by name")).toEqual(ids);
  });
});
