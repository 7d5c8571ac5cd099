import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "../../src/server/auth/tokens.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { mountedResources } from "../../src/server/crud/registry.ts";
import { makeZip, type ZipEntrySpec } from "../helpers/zip.ts";
import { createAdmin, createBankWithQuestions, createCourse, createCourseCategory, createMember, createOfficialExam, createPaper } from "../helpers/factories.ts";

/**
 * The fuzz probe's classes as a test: every route of the real app's route table (each method and
 * path registered), with hostile values in every query and JSON body field it reads — huge and
 * negative numbers, 2^31, 2^63, NaN-ish strings, NUL, unpaired surrogates, 100 KB strings, and
 * wrong types (arrays, objects, booleans, null) — sent anonymously, as a member and as an admin.
 * No answer may be a server error (HTTP 5xx) and every JSON answer is an envelope.
 */

interface Route {
  method: string;
  url: string;
}
type Who = "anonymous" | "member" | "admin";
type Params = Record<string, unknown>;

const routes: Route[] = [];
let t: TestApp;
let dataDir: string;
let memberId = 0;
let adminId = 0;
/** Valid requests per route, built from the test's own data: the hostile values replace one part at a time. */
interface Seed {
  query?: Params;
  body?: Params;
}
const seeds = new Map<string, Seed[]>();
let requests = 0;

const HUGE = "x".repeat(100_000);
/**
 * Longest value put in a query string: a real server refuses a request line over 16 KB (HTTP
 * 431, Node's header limit) before any route runs; inject() has no such limit.
 */
const MAX_QUERY_VALUE = 8_000;
/** Every hostile value (the random mixtures draw from it; as text in query strings). */
const HOSTILE: unknown[] = [
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 63,
  -1,
  1.5,
  1e308,
  "2147483648",
  "9223372036854775808",
  "NaN",
  "1e400",
  "",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  HUGE,
  true,
  null,
  [],
  [2 ** 31, "\u0000"],
  {},
  { "\u0000": 1, nested: { deeper: "\ud800" } },
];
/** The values a valid request's parts are replaced with, one at a time (one of each class). */
const MUTATIONS: unknown[] = [2 ** 31, -1, 2 ** 63, 1.5, "2147483648", "", "a\u0000b", "\ud800", HUGE, true, null, [], { "\u0000": 1 }];
/** The values every field gets at once. */
const EVERY_FIELD: unknown[] = [...MUTATIONS, -(2 ** 31) - 1, 1e308, "NaN", "9223372036854775808"];
/** The few values a caller turned away before its input is read gets. */
const LIGHT: unknown[] = [2 ** 31, "a\u0000b", "\ud800", HUGE, ["a\u0000"]];
/** Raw query-string values (already percent-encoded): NUL, invalid and truncated UTF-8, an unpaired surrogate's bytes. */
const HOSTILE_QUERY = ["a%00b", "%ED%A0%80", "%FF%E4%B8", "2147483648", "1e400", "x".repeat(MAX_QUERY_VALUE)];
/** Raw JSON bodies that are not objects, or not JSON at all. */
const HOSTILE_BODIES: { payload: string; type: string }[] = [
  { payload: "[]", type: "application/json" },
  { payload: '"\\u0000"', type: "application/json" },
  { payload: "123", type: "application/json" },
  { payload: "null", type: "application/json" },
  { payload: "true", type: "application/json" },
  { payload: "[".repeat(50_000) + "]".repeat(50_000), type: "application/json" },
  { payload: '{"a":', type: "application/json" },
  { payload: '{"__proto__":{"x":1}}', type: "application/json" },
  { payload: "a=1&b=%00", type: "application/x-www-form-urlencoded" },
  { payload: "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\u0000.png\"\r\n\r\nabc\r\n--x--", type: "multipart/form-data; boundary=x" },
  { payload: "--x\r\n", type: "multipart/form-data; boundary=x" },
  { payload: "plain text", type: "text/plain" },
];
/** Field names the API reads somewhere (API.md); every route gets all of them. */
const FIELDS = [
  "id", "roomId", "courseId", "lessonId", "paperId", "bankId", "questionId", "categoryId", "page", "limit", "keyword",
  "uuid", "answers", "answeredAt", "price", "nickname", "avatar", "gender", "birthday", "motto", "username", "password",
  "keep", "captchaId", "captchaInfo", "tab", "registerType", "email", "mobile", "captcha", "event", "template_code",
  "refreshToken", "oldPassword", "newPassword", "type", "account", "accountVerificationToken", "info", "unset",
  "province", "city", "suffix", "background", "topic", "requiredLogin", "ops",
];

function seed(route: string, value: Seed): void {
  seeds.set(route, [...(seeds.get(route) ?? []), value]);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "examhub-fuzz-"));
  t = await createTestApp({
    config: { dataDir, logLevel: "warn" },
    deps: { onRoute: (route) => void [route.method].flat().forEach((method) => routes.push({ method, url: route.url })) },
  });
  const db = t.database.db;
  // What the valid requests name, made here: a member of the default member group with a
  // balance, a super admin, a practice bank, a mock paper, an official exam open now, a free and
  // a paid course.
  const group = (await db.query<{ id: number }>("select id from user_group order by id limit 1")).rows[0]?.id ?? null;
  memberId = (await createMember(db, { groupId: group, money: 10_000, score: 100 })).id;
  adminId = (await createAdmin(db)).id;
  const practice = await createBankWithQuestions(db, 3);
  const bank = practice.id;
  const question = practice.questionIds[0]!;
  const paper = await createPaper(db, { rows: practice.questionIds.map((id) => ({ fixed: id })) });
  const room = (await createOfficialExam(db, { singles: 2, judges: 2, draw: 2 })).roomId;
  // A category named per language, so answers in zh-cn and en differ as real ones do.
  const categoryId = await createCourseCategory(db, { title: "课程", titleEn: "Courses" });
  const free = await createCourse(db, { categoryId, lessons: [{}, {}] });
  const freeCourse = free.id;
  const paidCourse = { id: (await createCourse(db, { categoryId, price: 1990, lessons: [{ freePreview: true }, {}] })).id, price: 1990 };
  const lesson = free.lessonIds[0]!;
  await freshTokens();
  const started = await inject({ method: "POST", url: "/api/exam/official/start", payload: { roomId: room } }, "member");
  const attempt = started.json().data?.attempt?.uuid ?? randomUUID();
  const now = Date.now();
  const answers = { [String(question)]: "A" };

  seed("GET /api/exam/bank", { query: { id: bank } });
  seed("GET /api/exam/paper", { query: { id: paper } });
  seed("GET /api/exam/records", { query: { page: 1, limit: 10 } });
  seed("GET /api/exam/record", { query: { uuid: attempt } });
  seed("POST /api/exam/official/start", { body: { roomId: room } });
  seed("POST /api/exam/official/save", { body: { uuid: attempt, answers, answeredAt: { [String(question)]: now } } });
  seed("POST /api/exam/official/submit", { body: { uuid: attempt, answers, answeredAt: { [String(question)]: now } } });
  // One op per request: each op type's fields in turn (the others stay valid in their own requests).
  for (const op of [
    { type: "practice.answer", payload: { questionId: question, bankId: bank, answer: ["A", "B"] } },
    { type: "favourite.set", payload: { questionId: question, on: true } },
    { type: "progress.set", payload: { bankId: bank, position: 3 } },
    { type: "attempt.submit", payload: { attemptId: randomUUID(), paperId: paper, startedAt: now - 1000, submittedAt: now, answers } },
    { type: "lesson.progress", payload: { lessonId: lesson, position: 12.5, completed: false } },
  ]) {
    seed("POST /api/exam/sync", { body: { ops: [{ id: randomUUID(), at: now, ...op }] } });
  }
  seed("GET /api/course/list", { query: { categoryId: 0, keyword: "a", page: 1, limit: 12 } });
  seed("GET /api/course/detail", { query: { id: freeCourse } });
  seed("GET /api/course/lesson", { query: { id: lesson } });
  seed("POST /api/course/enrol", { body: { courseId: freeCourse } });
  seed("POST /api/course/buy", { body: { courseId: paidCourse.id, price: Number(paidCourse.price) } });
  seed("POST /api/account/profile", { body: { avatar: "", nickname: "Fuzzed", gender: 1, birthday: "2000-01-02", motto: "m" } });
  seed("GET /api/account/balance", { query: { page: 1, limit: 10 } });
  seed("GET /api/account/integral", { query: { page: 1, limit: 10 } });
  seed("POST /api/user/checkIn", { body: { tab: "login", username: "nobody_here", password: "wrong-pass1", keep: 1 } });
  seed("POST /admin/index/login", { body: { username: "nobody_here", password: "wrong-pass1", keep: true } });
  seed("POST /api/notice/read", { body: { id: 1 } });
  seed("POST /api/notice/preference", { body: { room_open: true, room_closing: false, result: true, push: true, email: false } });
  seed("GET /api/ajax/area", { query: { province: "11", city: "1101" } });
  seed("GET /api/ajax/buildSuffixSvg", { query: { suffix: "pdf", background: "#ff0000" } });
}, 120_000);
afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

let address = 0;
const tokens = new Map<Who, string>();
/** A fresh token for each route and caller (a logout ends only that route's session). */
async function freshTokens(): Promise<void> {
  tokens.set("member", await issueToken(t.database.db, "user", memberId, 3600));
  tokens.set("admin", await issueToken(t.database.db, "admin", adminId, 3600));
}

/** One request as `who`, from its own address (rate limits count per address). */
async function inject(options: InjectOptions, who: Who): Promise<LightMyRequestResponse> {
  requests++;
  address++;
  const headers: Record<string, string> = { "think-lang": address % 2 ? "en" : "zh-cn", ...(options.headers as Record<string, string>) };
  if (who === "member") headers["ba-user-token"] = tokens.get("member")!;
  if (who === "admin") headers.batoken = tokens.get("admin")!;
  return t.app.inject({ ...options, headers, remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}` });
}

function describeRequest(route: Route, who: Who, what: string): string {
  return `${route.method} ${route.url} as ${who}: ${what.length > 200 ? `${what.slice(0, 200)}…` : what}`;
}

/** Requests that broke the rules (all of them are reported at the end, not only the first). */
const failures: string[] = [];

/** No server error, and a JSON answer is an envelope {code, msg, time, data}. */
function check(res: LightMyRequestResponse, label: string, method: string): void {
  if (res.statusCode >= 500) {
    failures.push(`HTTP ${res.statusCode}: ${label}`);
    return;
  }
  if (method === "HEAD") return;
  const type = String(res.headers["content-type"] ?? "");
  if (!type.includes("application/json")) return;
  let body: Record<string, unknown> | undefined;
  try {
    body = res.json() as Record<string, unknown>;
  } catch {
    failures.push(`not JSON: ${label}`);
    return;
  }
  const envelope = typeof body?.code === "number" && typeof body.msg === "string" && Number.isInteger(body.time) && "data" in body;
  if (!envelope) failures.push(`not an envelope (${JSON.stringify(body).slice(0, 80)}): ${label}`);
}

/** A concrete path for a route with parameters (`/storage/*`, `/:id`). */
function concretePath(url: string, value = "fuzz"): string {
  return url.replace(/\*$/, value).replace(/:[A-Za-z_]+/g, value);
}

function queryString(query: Params): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) parts.push(`${key}=${encodeLoosely((typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)).slice(0, MAX_QUERY_VALUE))}`);
  }
  return parts.join("&");
}

/** encodeURIComponent, but an unpaired surrogate goes as its (invalid) UTF-8-style bytes instead of throwing. */
function encodeLoosely(text: string): string {
  return text.replace(/[\ud800-\udfff]/g, (c) => `%${(0xe0 | (c.charCodeAt(0) >> 12)).toString(16)}%${(0x80 | ((c.charCodeAt(0) >> 6) & 63)).toString(16)}%${(0x80 | (c.charCodeAt(0) & 63)).toString(16)}`)
    .split(/(%[0-9a-f]{2})/)
    .map((part, i) => (i % 2 ? part : encodeURIComponent(part)))
    .join("");
}

/** Every path into `value` (its own root included), as a list of keys. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = prefix.length ? [prefix] : [];
  if (Array.isArray(value)) value.forEach((child, i) => out.push(...paths(child, [...prefix, i])));
  else if (value !== null && typeof value === "object") for (const [k, child] of Object.entries(value)) out.push(...paths(child, [...prefix, k]));
  return out;
}

function replaced(value: Params, at: (string | number)[], by: unknown): Params {
  const copy = structuredClone(value);
  let node: Record<string | number, unknown> = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[at.at(-1)!] = by;
  return copy;
}

const IDENTITIES: Who[] = ["anonymous", "member", "admin"];

async function send(route: Route, who: Who, parts: { query?: Params; rawQuery?: string; body?: unknown; rawBody?: { payload: string; type: string }; path?: string }, what: string) {
  const sendsBody = route.method !== "GET" && route.method !== "HEAD";
  const qs = parts.rawQuery ?? (parts.query ? queryString(parts.query) : "");
  const url = `${parts.path ?? concretePath(route.url)}${qs ? `?${qs}` : ""}`;
  const options: InjectOptions = { method: route.method as InjectOptions["method"], url };
  if (sendsBody && parts.rawBody) {
    options.payload = parts.rawBody.payload;
    options.headers = { "content-type": parts.rawBody.type };
  } else if (sendsBody && parts.body !== undefined) {
    options.payload = JSON.stringify(parts.body);
    options.headers = { "content-type": "application/json" };
  }
  check(await inject(options, who), describeRequest(route, who, `${what} ${url.slice(0, 120)}`), route.method);
}

describe("hostile values on every route", () => {
  it("finds the route table of the real app", () => {
    const table = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const expected of ["POST /api/exam/sync", "GET /api/exam/bank", "POST /api/account/profile", "GET /api/course/list", "POST /admin/index/login", "GET /storage/*"]) {
      expect(table).toContain(expected);
    }
  });

  it("never answers a server error, whoever asks", { timeout: 600_000 }, async () => {
    const started = Date.now();
    for (const route of routes) {
      // HEAD runs the GET handler: the GET cases cover it, a light pass checks the route itself.
      const routeSeeds = seeds.get(`${route.method === "HEAD" ? "GET" : route.method} ${route.url}`) ?? [];
      const seed = routeSeeds[0] ?? {};
      const sendsBody = route.method !== "GET" && route.method !== "HEAD";
      await freshTokens();
      let anonymousAnswer = "";
      for (const who of IDENTITIES) {
        // The light pass for a caller the route turns away before reading its input (303/401/409),
        // and for a caller the route answers exactly as it answers anyone (it does not look at who asks).
        const probe = await inject(
          { method: route.method as InjectOptions["method"], url: `${concretePath(route.url)}${seed.query ? `?${queryString(seed.query)}` : ""}`, ...(sendsBody ? { payload: seed.body ?? {} } : {}) },
          who,
        );
        const json = route.method !== "HEAD" && String(probe.headers["content-type"]).includes("json") ? (probe.json() as { code?: unknown; time?: unknown }) : undefined;
        const answer = `${probe.statusCode} ${JSON.stringify({ ...json, time: 0 })}`;
        if (who === "anonymous") anonymousAnswer = answer;
        const light = route.method === "HEAD" || [303, 401, 409].includes(Number(json?.code)) || (who !== "anonymous" && answer === anonymousAnswer);
        // 1. Every field the API knows, all set to one hostile value.
        for (const value of light ? LIGHT : EVERY_FIELD) {
          const all = Object.fromEntries(FIELDS.map((f) => [f, value]));
          await send(route, who, sendsBody ? { body: all } : { query: all }, `every field = ${JSON.stringify(value)?.slice(0, 40)}`);
        }
        if (light) continue;
        // 2. A valid request with one part (however deep) replaced by a hostile value.
        for (const valid of routeSeeds) {
          for (const [where, base] of [["query", valid.query], ["body", valid.body]] as const) {
            if (!base) continue;
            for (const at of paths(base)) {
              for (const value of MUTATIONS) {
                await send(route, who, { ...valid, [where]: replaced(base, at, value) }, `${where}.${at.join(".")} = ${JSON.stringify(value)?.slice(0, 40)}`);
              }
            }
          }
        }
        // 3. Raw query strings: NUL, invalid UTF-8 and repeated keys, in the route's own fields and the usual ones.
        const queryFields = [...new Set([...Object.keys(seed.query ?? {}), "id", "page", "keyword", "uuid"])];
        for (const raw of HOSTILE_QUERY) {
          await send(route, who, { rawQuery: queryFields.map((f) => `${f}=${raw}&${f}[]=${raw}`).join("&"), body: seed.body }, `raw query ${raw.slice(0, 20)}`);
        }
        // 4. Bodies that are not objects, not JSON, or not what the content type says.
        if (sendsBody) for (const raw of HOSTILE_BODIES) await send(route, who, { rawBody: raw }, `raw body ${raw.payload.slice(0, 30)}`);
        // 5. Hostile path segments for routes with parameters.
        if (/[*:]/.test(route.url)) {
          for (const segment of ["%00", "a%00b", "%ED%A0%80", "..%2f..%2fetc%2fpasswd", "%2e%2e/%2e%2e/x", "x".repeat(5_000)]) {
            await send(route, who, { path: concretePath(route.url, segment) }, `path ${segment.slice(0, 20)}`);
          }
        }
      }
    }
    // 6. Random mixtures: a few fields of the route (and the usual ones) with random hostile values.
    const hostile = fc.constantFrom(...HOSTILE);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes.filter((r) => r.method !== "HEAD")),
        fc.constantFrom(...IDENTITIES),
        fc.dictionary(fc.constantFrom(...FIELDS), hostile, { maxKeys: 4 }),
        async (route, who, fields) => {
          await freshTokens();
          const seed = seeds.get(`${route.method} ${route.url}`)?.[0] ?? {};
          const sendsBody = route.method !== "GET";
          const parts = sendsBody ? { query: seed.query, body: { ...seed.body, ...fields } } : { query: { ...seed.query, ...fields } };
          await send(route, who, parts, `mixture ${JSON.stringify(fields).slice(0, 120)}`);
        },
      ),
      { numRuns: 200 },
    );
    expect(failures.slice(0, 40), `${failures.length} of ${requests} requests failed`).toEqual([]);
    // Still serving after all that.
    expect((await inject({ method: "GET", url: "/api/health" }, "anonymous")).json()).toMatchObject({ code: 1, data: { db: "ok" } });
    console.info(`fuzz: ${routes.length} routes, ${requests} requests in ${Date.now() - started} ms`);
  });
});

// ---- Empty adds on every CRUD resource, module zips whose names clash ----

describe("empty bodies on every CRUD resource", () => {
  it("answers add {} and edit {id} on every resource (static, generated, a module's) with an envelope, never a 5xx", async () => {
    await freshTokens();
    const field = { type: "string", length: 0, default: "", comment: "", index: "none", required: false, options: [], optionLabels: {}, form: "text", list: true, search: "none" };
    const design = { name: "fuzzy", title: "Fuzzy", titleEn: "Fuzzy", fields: [{ ...field, name: "label" }, { ...field, name: "code", index: "unique" }], quickSearch: [], sortable: true, recycle: false, sensitive: [] };
    expect((await inject({ method: "POST", url: "/admin/crud/crud/generate", payload: design }, "admin")).json()).toMatchObject({ code: 0 });
    expect((await inject({ method: "POST", url: "/admin/crud/crud/generate", payload: { design } }, "admin")).json()).toMatchObject({ code: 1 });
    for (const name of ["notice", "checkin"]) expect((await inject({ method: "POST", url: "/admin/moduleStore/moduleStore/install", payload: { name } }, "admin")).json()).toMatchObject({ code: 1 });
    const defs = mountedResources(t.app);
    expect(defs.map((d) => d.rule)).toEqual(expect.arrayContaining(["gen/fuzzy", "mod/notice/notice", "mod/checkin/log"]));
    const failures: string[] = [];
    for (const def of defs) {
      // Twice: a second row of defaults may clash on a unique column (a code-0 answer, not a 500).
      for (const [action, payload] of [["add", {}], ["add", {}], ["edit", { id: 1 }], ["edit", {}]] as const) {
        const res = await inject({ method: "POST", url: `/admin/${def.rule}/${action}`, payload }, "admin");
        const body = res.headers["content-type"]?.toString().includes("json") ? (res.json() as { code?: unknown }) : null;
        if (res.statusCode >= 500 || !body || ![0, 1].includes(body.code as number)) failures.push(`${def.rule}/${action} ${JSON.stringify(payload)}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("module zips whose names clash", () => {
  it("refuses each with a code-0 envelope, never a 5xx", async () => {
    await freshTokens();
    const manifest = Buffer.from(JSON.stringify({ name: "zipclash", title: "冲突", version: "0.1.0", author: "Fuzz", tables: [{ name: "item", title: "item", fields: [{ name: "label", type: "string" }] }] }));
    const x = Buffer.from("{}");
    const shapes: ZipEntrySpec[][] = [
      [{ name: "a.json", data: x }, { name: "a.json/b.json", data: x }],
      [{ name: "a.json/b.json", data: x }, { name: "a.json", data: x }],
      [{ name: "manifest.json/x.md", data: x }],
      [{ name: "a.md/", data: Buffer.alloc(0) }, { name: "a.md", data: x }],
      [{ name: "x.json", data: x }, { name: "x.json", data: x }],
      [{ name: "X.json", data: x }, { name: "x.json", data: x }],
      [{ name: "d/a.md", data: x }, { name: "D/b.md", data: x }],
      [{ name: "top/a.json", data: x }, { name: "top/a.json/b.json", data: x }],
    ];
    for (const shape of shapes) {
      const entries = shape[0]!.name.startsWith("top/") ? [{ name: "top/manifest.json", data: manifest }, ...shape] : [{ name: "manifest.json", data: manifest }, ...shape];
      const res = await inject({ method: "POST", url: "/admin/moduleStore/moduleStore/upload", payload: { name: "clash.zip", data: makeZip(entries).toString("base64") } }, "admin");
      expect({ shape: shape.map((e) => e.name), status: res.statusCode, code: res.json().code }).toEqual({ shape: shape.map((e) => e.name), status: 200, code: 0 });
    }
  });
});
