import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { adminAccessPlugin, SUPER_ADMIN_RULE, type AdminRoute } from "../../src/server/modules/admin/access.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * Every back-office endpoint checks its rule on the server: walked over the whole
 * route table, so a route added later is covered without editing this test.
 */

let t: TestApp;
const tokens: Record<"none" | "disabledGroup" | "disabledRule" | "viewer" | "super" | "member", string> = {
  none: "",
  disabledGroup: "",
  disabledRule: "",
  viewer: "",
  super: "",
  member: "",
};

async function admin(username: string, isSuper = false): Promise<number> {
  const { rows } = await t.database.db.query<{ id: number }>("insert into admin (username, password_hash, is_super) values ($1, $2, $3) returning id", [
    username,
    await hashPassword("whatever-1"),
    isSuper,
  ]);
  return rows[0]!.id;
}
async function group(name: string, rules: string, status = "enable"): Promise<number> {
  const { rows } = await t.database.db.query<{ id: number }>("insert into admin_group (name, rules, status) values ($1, $2, $3) returning id", [name, rules, status]);
  return rows[0]!.id;
}
const join = (uid: number, groupId: number) => t.database.db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [uid, groupId]);
const ruleId = async (name: string) => (await t.database.db.query<{ id: number }>("select id from admin_rule where name = $1", [name])).rows[0]!.id;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  // No group at all.
  tokens.none = await issueToken(db, "admin", await admin("no_rules"), 3600);
  // A group that would grant everything, but is disabled.
  const disabledGroupAdmin = await admin("disabled_group");
  await join(disabledGroupAdmin, await group("Off", "*", "disable"));
  tokens.disabledGroup = await issueToken(db, "admin", disabledGroupAdmin, 3600);
  // A group whose only rule is disabled.
  await db.query("update admin_rule set status = 'disable' where name = 'moduleStore/moduleStore'");
  const disabledRuleAdmin = await admin("disabled_rule");
  await join(disabledRuleAdmin, await group("Dead rule", String(await ruleId("moduleStore/moduleStore"))));
  tokens.disabledRule = await issueToken(db, "admin", disabledRuleAdmin, 3600);
  // One rule: the dashboard.
  const viewer = await admin("viewer_one");
  await join(viewer, await group("Viewers", String(await ruleId("dashboard"))));
  tokens.viewer = await issueToken(db, "admin", viewer, 3600);
  tokens.super = await issueToken(db, "admin", await admin("super_one", true), 3600);
  const member = await db.query<{ id: number }>("insert into member (username, password_hash) values ('just_member', 'x') returning id");
  tokens.member = await issueToken(db, "user", member.rows[0]!.id, 3600);
});
afterAll(() => t.close());

const call = (route: AdminRoute, headers: Record<string, string>) =>
  t.app.inject({ method: route.method as "GET", url: route.url.replace(/:(\w+)/g, "1"), headers: { "think-lang": "en", ...headers }, payload: route.method === "GET" || route.method === "HEAD" ? undefined : {} });

const isPublic = (route: AdminRoute) => typeof route.adminRule === "object";
const label = (route: AdminRoute) => `${route.method} ${route.url}`;

describe("the admin route table", () => {
  it("declares a rule on every /admin route; only login and logout are public", () => {
    expect(t.app.adminRoutes.length).toBeGreaterThan(5);
    expect(t.app.adminRoutes.filter(isPublic).map(label).sort()).toEqual([
      "GET /admin/index/login",
      "POST /admin/index/login",
      "POST /admin/index/logout",
    ]);
  });

  it("answers 401 (no permission) to admins whose groups grant no enabled rule, on every other /admin route", async () => {
    for (const route of t.app.adminRoutes.filter((r) => !isPublic(r))) {
      for (const who of ["none", "disabledGroup", "disabledRule"] as const) {
        const res = await call(route, { batoken: tokens[who] });
        expect(res.statusCode, `${label(route)} as ${who}`).toBe(200);
        if (route.method === "HEAD") continue; // no body; the GET twin is checked
        expect(res.json(), `${label(route)} as ${who}`).toMatchObject({ code: 401, msg: "You have no permission to do this" });
      }
    }
  });

  it("never lets a member token through, in either header, nor no token", async () => {
    for (const route of t.app.adminRoutes.filter((r) => !isPublic(r) && r.method !== "HEAD")) {
      const variants: Record<string, string>[] = [{ batoken: tokens.member }, { "ba-user-token": tokens.member }, { batoken: tokens.member, "ba-user-token": tokens.member }, {}];
      for (const headers of variants) {
        expect((await call(route, headers)).json(), `${label(route)} ${JSON.stringify(Object.keys(headers))}`).toMatchObject({ code: 303, data: { type: "need login" } });
      }
    }
  });

  it("lets a super admin and, for '*' routes, an admin with any one rule through to the handler", async () => {
    for (const route of t.app.adminRoutes.filter((r) => !isPublic(r) && r.method !== "HEAD")) {
      for (const who of route.adminRule === "*" ? (["super", "viewer"] as const) : (["super"] as const)) {
        const res = await call(route, { batoken: tokens[who] });
        // A refusal is always an envelope; a file (an SVG icon) means the handler answered.
        const code = String(res.headers["content-type"]).includes("json") ? (res.json() as { code: number }).code : 1;
        expect([401, 303, 409], `${label(route)} as ${who}`).not.toContain(code);
      }
    }
  });

  // Two calls for each of several hundred routes: a minute on a busy 2-core machine.
  it("names an existing rule on every rule-checked route, lets an admin holding just that rule through and refuses one holding another", async () => {
    const named = t.app.adminRoutes.filter(
      (r): r is AdminRoute & { adminRule: string } =>
        typeof r.adminRule === "string" && r.adminRule !== "*" && r.adminRule !== SUPER_ADMIN_RULE && r.method !== "HEAD" && !r.adminRule.includes(":"),
    );
    // Rules naming a route parameter are the generated resources' (`gen/:name/<action>`, one rule
    // per generated screen) and the modules' (`mod/:module/:table/<action>`):
    // tests/server/codegen.test.ts and module-market.test.ts grant and refuse them.
    expect(
      t.app.adminRoutes.filter((r) => typeof r.adminRule === "string" && r.adminRule.includes(":")).every((r) => /^(gen\/:name|mod\/:module\/:table)\//.test(String(r.adminRule))),
    ).toBe(true);
    expect(named.length).toBeGreaterThan(0);
    const holders = new Map<string, string>();
    for (const route of named) {
      const rule = route.adminRule;
      const { rows } = await t.database.db.query<{ id: number }>("select id from admin_rule where name = $1 and status = 'enable'", [rule]);
      expect(rows.length, `${label(route)} needs ${rule}, which admin_rule must have`).toBe(1);
      if (!holders.has(rule)) {
        const holder = await admin(`holds_${holders.size}`);
        await join(holder, await group(`Only ${rule}`, String(rows[0]!.id)));
        holders.set(rule, await issueToken(t.database.db, "admin", holder, 3600));
      }
    }
    const rules = [...holders.keys()];
    for (const route of named) {
      const allowed = await call(route, { batoken: holders.get(route.adminRule)! });
      const code = String(allowed.headers["content-type"]).includes("json") ? (allowed.json() as { code: number }).code : 1;
      expect([401, 303, 409], `${label(route)} with ${route.adminRule}`).not.toContain(code);
      const another = rules.find((r) => r !== route.adminRule);
      if (another) expect((await call(route, { batoken: holders.get(another)! })).json(), `${label(route)} with ${another}`).toMatchObject({ code: 401 });
    }
  }, 120_000);

  it("lets only super admins through on the super-admin routes (the terminal, the code generator): an admin with some rules gets 401", async () => {
    const superOnly = t.app.adminRoutes.filter((r) => r.adminRule === SUPER_ADMIN_RULE && r.method !== "HEAD");
    expect(superOnly.map(label).sort()).toEqual([
      "GET /admin/ajax/getTableFieldList",
      "GET /admin/ajax/getTablePk",
      "GET /admin/ajax/terminal",
      "GET /admin/crud/crud/edit",
      "GET /admin/crud/crud/export",
      "GET /admin/crud/crud/index",
      "GET /admin/moduleStore/moduleStore/index",
      "POST /admin/ajax/changeTerminalConfig",
      "POST /admin/crud/crud/del",
      "POST /admin/crud/crud/generate",
      "POST /admin/crud/crud/import",
      "POST /admin/crud/crud/preview",
      "POST /admin/moduleStore/moduleStore/disable",
      "POST /admin/moduleStore/moduleStore/enable",
      "POST /admin/moduleStore/moduleStore/install",
      "POST /admin/moduleStore/moduleStore/settings",
      "POST /admin/moduleStore/moduleStore/uninstall",
      "POST /admin/moduleStore/moduleStore/upload",
    ]);
    for (const route of superOnly) {
      expect((await call(route, { batoken: tokens.viewer })).json(), label(route)).toMatchObject({ code: 401 });
    }
  });

  it("lists the super-admin tools (the code generator) in the menus of super admins only", async () => {
    interface MenuNode { name: string; children: MenuNode[] }
    const flat = (nodes: MenuNode[]): string[] => nodes.flatMap((n) => [n.name, ...flat(n.children)]);
    const menus = async (token: string) =>
      flat((await t.app.inject({ method: "GET", url: "/admin/index/index", headers: { batoken: token } })).json().data.menus as MenuNode[]);
    const everyRule = (await t.database.db.query<{ ids: string }>("select string_agg(id::text, ',') as ids from admin_rule")).rows[0]!.ids;
    const holder = await admin("every_rule_not_super");
    await join(holder, await group("Every rule by id", everyRule));
    const theirs = await menus(await issueToken(t.database.db, "admin", holder, 3600));
    const star = await admin("star_group");
    await join(star, await group("Star", "*"));
    expect(await menus(tokens.super)).toContain("crud/crud");
    expect(await menus(await issueToken(t.database.db, "admin", star, 3600))).toContain("crud/crud");
    expect(theirs).not.toContain("crud/crud");
    expect(theirs).toEqual(expect.arrayContaining(["auth/admin", "exam/question"]));
  });

  it("answers 409 for an expired admin token (the client refreshes), before any permission answer", async () => {
    const expired = await issueToken(t.database.db, "admin", await admin("expired_one"), -10);
    expect((await t.app.inject({ method: "GET", url: "/admin/index/index", headers: { batoken: expired } })).json().code).toBe(409);
  });
});

describe("the start-up guard", () => {
  it("refuses to start when an /admin route declares no rule, naming the route", async () => {
    const app = Fastify();
    await app.register(adminAccessPlugin);
    const start = async () => {
      await app.register(async (child) => {
        child.get("/admin/report/export", async () => "secret");
      });
      await app.ready();
    };
    await expect(start()).rejects.toThrow("GET /admin/report/export declares no admin rule");
    await app.close().catch(() => {});
  });

  it("accepts routes that declare one, and routes outside /admin", async () => {
    const app = Fastify();
    await app.register(adminAccessPlugin);
    await app.register(async (child) => {
      child.get("/admin/report/export", { config: { adminRule: "routine/attachment" } }, async () => "ok");
      child.get("/api/report/export", async () => "ok");
    });
    await app.ready();
    expect(app.adminRoutes.map((r) => `${r.method} ${r.url} ${String(r.adminRule)}`)).toEqual([
      "GET /admin/report/export routine/attachment",
      "HEAD /admin/report/export routine/attachment",
    ]);
    await app.close();
  });
});
