import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createAdmin, createMember, type TestAdmin, type TestMember } from "../helpers/factories.ts";

/**
 * A HEAD request runs no GET handler. Fastify answers HEAD for every GET by
 * default with the GET's own handler, so `HEAD /admin/ajax/terminal?command=...` ran the command.
 * Only the file-serving routes declare HEAD (a player asks a file's size with it).
 */

const routes: { method: string; url: string }[] = [];
let t: TestApp;
let admin: TestAdmin;
let member: TestMember;
let dataDir: string;
/** The routes that serve files (uploads, the face models and their WASM): HEAD is theirs, answered by @fastify/static's own handler. */
const FILES = /^\/(?:storage|face-models|face-wasm)\//;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-head-"));
  t = await createTestApp({
    config: { dataDir },
    deps: { onRoute: (route: RouteOptions) => void [route.method].flat().forEach((method) => routes.push({ method, url: route.url! })) },
  });
  admin = await createAdmin(t.database.db);
  member = await createMember(t.database.db);
});

afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Rows of every table of the app's schema, to see that a request wrote nothing anywhere. */
async function rowCounts(): Promise<Record<string, number>> {
  const { rows: tables } = await t.database.db.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1",
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = Number((await t.database.db.query<{ n: string }>(`select count(*) as n from "${name}"`)).rows[0]!.n);
  return counts;
}

describe("HEAD requests", () => {
  it("are routed only to the file-serving routes, never to an API route", () => {
    const heads = routes.filter((r) => r.method === "HEAD").map((r) => r.url);
    expect(heads.length).toBeGreaterThan(0);
    for (const url of heads) expect(url).toMatch(FILES);
    // Every GET of the API has no HEAD twin.
    const gets = routes.filter((r) => r.method === "GET" && !FILES.test(r.url));
    expect(gets.length).toBeGreaterThan(50);
    for (const get of gets) expect(heads).not.toContain(get.url);
  });

  it("HEAD /admin/ajax/terminal as a super admin runs nothing and writes no admin log row", async () => {
    const before = (await t.database.db.query("select id from admin_log")).rows.length;
    const res = await t.app.inject({ method: "HEAD", url: `/admin/ajax/terminal?command=version.node&uuid=${crypto.randomUUID()}&extend=x`, headers: admin.headers });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"] ?? "").not.toMatch(/event-stream/);
    expect((await t.database.db.query("select id from admin_log")).rows.length).toBe(before);
  });

  it("on every GET route of the API, as a super admin and as a member, answer 404 and change no row of any table", async () => {
    const gets = [...new Set(routes.filter((r) => r.method === "GET" && !FILES.test(r.url)).map((r) => r.url))];
    const before = await rowCounts();
    for (const url of gets) {
      const concrete = url.replace(/:[A-Za-z_]+/g, "1").replace(/\*$/, "x");
      const query = "?id=1&ids=1&uuid=" + crypto.randomUUID() + "&command=version.node&extend=x&page=1&limit=10";
      for (const headers of [admin.headers, member.headers]) {
        const res = await t.app.inject({ method: "HEAD", url: concrete + query, headers });
        expect(res.statusCode, `HEAD ${url}`).toBe(404);
      }
    }
    expect(await rowCounts()).toEqual(before);
  });
});
