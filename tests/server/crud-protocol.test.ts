import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resources } from "../../src/server/crud/resources/index.ts";
import type { ResourceDef } from "../../src/server/crud/resource.ts";
import { newSerial } from "../../src/server/modules/certificate/issue.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createAdmin, createBank, createCourse, createCourseCategory, createMember, type TestAdmin } from "../helpers/factories.ts";

/**
 * The generic CRUD protocol (API.md "Admin calls") run against every registered resource, from
 * the registry: every search operator, quick search, order, paging, remote select preload, add,
 * edit, del, sortable, and the refusals (unknown field or operator, hostile order, wrong-typed
 * values) that answer code 0 and change nothing.
 */

type Body = Record<string, unknown>;
interface Fixture {
  /** The field whose text tells the three rows apart (`marker(n)` is in row n's only). */
  text: string;
  marker(n: number): string;
  /** An add body for row n (resources with `add`). */
  body?(n: number): Body;
  /** Makes three rows of a read-only resource; answers their ids. */
  seed?(): Promise<number[]>;
  /** Runs before the three adds (rows the add bodies refer to). */
  prepare?(): Promise<void>;
}

/**
 * Three members (usernames told apart by `letter`), each given one log row through the
 * resource's `add` (an administrator's adjustment).
 */
function accountLogFixture(column: string, letter: string): Fixture {
  const members: number[] = [];
  return {
    text: "username",
    marker: (n) => `${tag}${letter}${n}`,
    async prepare() {
      for (const n of [1, 2, 3]) members[n] = (await createMember(t.database.db, { username: `${tag}${letter}${n}` })).id;
    },
    body: (n) => ({ user_id: members[n] ?? 2_000_000_000, [column]: 100 * n, memo: `Adjust ${n}` }),
  };
}

/** Courses in a category of their own (made directly), told apart by title. */
function courseFixture(): Fixture {
  let category = 0;
  return {
    text: "title",
    marker: (n) => `${tag}co${n}`,
    async prepare() {
      category = await createCourseCategory(t.database.db, { title: `${tag}cat` });
    },
    body: (n) => ({ category_id: category || 2_000_000_000, title: `${tag}co${n}`, summary: `Course ${n}`, introduction: "<p>Intro</p>", price: 100 * n, status: "enable" }),
  };
}

/** Lessons of one course (made directly), told apart by title. */
function lessonFixture(): Fixture {
  let course = 0;
  return {
    text: "title",
    marker: (n) => `${tag}le${n}`,
    async prepare() {
      course = (await createCourse(t.database.db, { lessons: [] })).id;
    },
    body: (n) => ({ course_id: course || 2_000_000_000, title: `${tag}le${n}`, content: "<p>Text</p>", video: { url: "", type: "", size: 0, duration: 0 }, free_preview: n === 1, weigh: n }),
  };
}

/** An exam-only bank with a short-answer question, a paper and a room using it, and `n` members who sat it. */
async function examFixture(prefix: string) {
  const db = t.database.db;
  const bank = (await db.query<{ id: number }>("insert into exam_classify (title, kind) values ($1, 'exam') returning id", [`${tag}${prefix}bank`])).rows[0]!.id;
  const question = (
    await db.query<{ id: number }>("insert into exam_question (classify_id, type, stem, answer, score) values ($1, 'short', $2, '{\"keywords\":[],\"reference\":\"\"}', 5) returning id", [bank, `${tag}${prefix}q`])
  ).rows[0]!.id;
  const paper = (await db.query<{ id: number }>("insert into exam_paper (title, total_score) values ($1, 5) returning id", [`${tag}${prefix}paper`])).rows[0]!.id;
  await db.query("insert into exam_paper_row (paper_id, kind, question_id, score) values ($1, 'fixed', $2, 5)", [paper, question]);
  const room = (await db.query<{ id: number }>("insert into exam_room (paper_id, title, start_time, end_time, duration) values ($1, $2, 0, 1, 600) returning id", [paper, `${tag}${prefix}room`])).rows[0]!.id;
  const attempt = async (username: string) => {
    const member = await createMember(db, { username });
    return (
      await db.query<{ id: number }>(
        `insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, questions, answers, score, passed, started_at, deadline, submitted_at, status)
         values (gen_random_uuid()::text, $1, 'official', $2, $3, $4, $5, 0, false, 0, 600, 10, 'submitted') returning id`,
        [member.id, paper, room, JSON.stringify([{ id: question, score: 5 }]), JSON.stringify({ [question]: "an answer" })],
      )
    ).rows[0]!.id;
  };
  return { bank, question, paper, room, attempt };
}

let t: TestApp;
let root: TestAdmin;
const tag = `z${Math.random().toString(36).slice(2, 6)}`;

const fixtures: Record<string, Fixture> = {
  "auth/admin": {
    text: "username",
    marker: (n) => `${tag}a${n}`,
    body: (n) => ({ username: `${tag}a${n}`, nickname: `Admin ${n}`, password: "secret-123", email: "", mobile: "", status: "enable", group_ids: [] }),
  },
  "auth/group": { text: "name", marker: (n) => `${tag}g${n}`, body: (n) => ({ pid: 0, name: `${tag}g${n}`, rules: [], status: "enable" }) },
  "auth/rule": {
    text: "name",
    marker: (n) => `${tag}r${n}`,
    body: (n) => ({ pid: 0, type: "menu", title: `Rule ${n}`, name: `${tag}r${n}`, path: `${tag}/r${n}`, menu_type: "tab", weigh: n }),
  },
  "user/user": {
    text: "username",
    marker: (n) => `${tag}m${n}`,
    body: (n) => ({ username: `${tag}m${n}`, nickname: `Member ${n}`, password: "secret-123", gender: 1, birthday: "2000-01-0" + n, status: "enable" }),
  },
  "user/group": { text: "name", marker: (n) => `${tag}u${n}`, body: (n) => ({ name: `${tag}u${n}`, rules: [], status: "enable" }) },
  "user/rule": {
    text: "name",
    marker: (n) => `${tag}x${n}`,
    body: (n) => ({ pid: 0, type: "menu", title: `Member rule ${n}`, name: `${tag}x${n}`, path: `${tag}/x${n}`, menu_type: "tab", weigh: n }),
  },
  "user/moneyLog": accountLogFixture("money", "b"),
  "user/scoreLog": accountLogFixture("score", "s"),
  "security/dataRecycle": {
    text: "name",
    marker: (n) => `${tag}dr${n}`,
    body: (n) => ({ name: `${tag}dr${n}`, controller: ["auth/group", "auth/rule", "user/group"][(n - 1) % 3], status: "enable" }),
  },
  "security/sensitiveData": {
    text: "name",
    marker: (n) => `${tag}sd${n}`,
    body: (n) => ({ name: `${tag}sd${n}`, controller: ["auth/group", "auth/rule", "user/group"][(n - 1) % 3], data_fields: [n === 2 ? "title" : "name"], status: "enable" }),
  },
  "security/dataRecycleLog": {
    text: "title",
    marker: (n) => `${tag}rb${n}`,
    // Three members deleted through the back office (members have a recycle rule): three records.
    async seed() {
      const ids: number[] = [];
      for (const n of [1, 2, 3]) {
        const member = await createMember(t.database.db, { username: `${tag}rb${n}` });
        const res = await t.app.inject({ method: "DELETE", url: `/admin/user/user/del?ids[]=${member.id}`, headers: root.headers });
        expect(res.json().code).toBe(1);
        const { rows } = await t.database.db.query<{ id: number }>("select id from security_data_recycle_log where data_table = 'member' and row_id = $1", [member.id]);
        ids.push(rows[0]!.id);
      }
      return ids;
    },
  },
  "security/sensitiveDataLog": {
    text: "title",
    marker: (n) => `${tag}sl${n}`,
    // Three members renamed through the back office (member usernames are watched): three records.
    async seed() {
      const ids: number[] = [];
      for (const n of [1, 2, 3]) {
        const member = await createMember(t.database.db, { username: `${tag}slx${n}` });
        const res = await t.app.inject({ method: "POST", url: "/admin/user/user/edit", headers: root.headers, payload: { id: member.id, username: `${tag}sl${n}`, password: "" } });
        expect(res.json().code).toBe(1);
        const { rows } = await t.database.db.query<{ id: number }>("select id from security_sensitive_data_log where data_table = 'member' and id_value = $1", [member.id]);
        ids.push(rows[0]!.id);
      }
      return ids;
    },
  },
  "org/company": { text: "name", marker: (n) => `${tag}oc${n}`, body: (n) => ({ pid: 0, name: `${tag}oc${n}`, weigh: n, status: "enable" }) },
  "org/duty": { text: "name", marker: (n) => `${tag}od${n}`, body: (n) => ({ name: `${tag}od${n}`, weigh: n, status: "enable" }) },
  "org/classroom": { text: "name", marker: (n) => `${tag}ocl${n}`, body: (n) => ({ name: `${tag}ocl${n}`, start_time: 1000 * n, end_time: 2000 * n, remark: `Class ${n}`, status: "enable" }) },
  "org/headTeacher": {
    text: "username",
    marker: (n) => `${tag}ht${n}`,
    // The classroom form's head-teacher picker reads admins: three admins.
    async seed() {
      const ids: number[] = [];
      for (const n of [1, 2, 3]) ids.push((await createAdmin(t.database.db, { username: `${tag}ht${n}` })).id);
      return ids;
    },
  },
  "course/category": { text: "title", marker: (n) => `${tag}cc${n}`, body: (n) => ({ pid: 0, title: `${tag}cc${n}`, title_en: `Category ${n}`, weigh: n, status: "enable" }) },
  "course/course": courseFixture(),
  "course/lesson": lessonFixture(),
  "routine/attachment": {
    text: "name",
    marker: (n) => `${tag}f${n}`,
    // Three stored uploads (rows only: deleting them removes no file of another row).
    async seed() {
      const ids: number[] = [];
      for (const n of [1, 2, 3]) {
        const { rows } = await t.database.db.query<{ id: number }>(
          "insert into attachment (topic, url, name, size, mimetype, sha1) values ('default', $1, $2, $3, 'text/plain', $4) returning id",
          [`/storage/default/20260101/${tag}${n}.txt`, `${tag}f${n}`, 100 * n, `${tag}sha${n}`],
        );
        ids.push(rows[0]!.id);
      }
      return ids;
    },
  },
  "exam/paper": {
    text: "title",
    marker: (n) => `${tag}pp${n}`,
    body: (n) => ({ title: `${tag}pp${n}`, total_score: 10 * n, pass_score: 5, duration: 600 * n, status: "enable" }),
  },
  "exam/paperRow": (() => {
    let exam: Awaited<ReturnType<typeof examFixture>>;
    return {
      text: "remark",
      marker: (n: number) => `${tag}pr${n}`,
      async prepare() {
        exam = await examFixture("pr");
      },
      body: (n: number) => ({ paper_id: exam?.paper ?? 2_000_000_000, kind: "fixed", question_id: exam?.question ?? 2_000_000_000, score: n, remark: `${tag}pr${n}` }),
    };
  })(),
  "exam/room": (() => {
    let exam: Awaited<ReturnType<typeof examFixture>>;
    return {
      text: "title",
      marker: (n: number) => `${tag}rm${n}`,
      async prepare() {
        exam = await examFixture("rm");
      },
      body: (n: number) => ({ paper_id: exam?.paper ?? 2_000_000_000, title: `${tag}rm${n}`, start_time: 1000, end_time: 2000 + n, duration: 600, pass_score: n, review_policy: "never" }),
    };
  })(),
  "exam/marking": {
    text: "comment",
    marker: (n) => `${tag}mk${n}`,
    // Three closed attempts, each with a short answer in the queue.
    async seed() {
      const exam = await examFixture("mk");
      const ids: number[] = [];
      for (const n of [1, 2, 3]) {
        const attempt = await exam.attempt(`${tag}mkm${n}`);
        const { rows } = await t.database.db.query<{ id: number }>("insert into exam_mark (attempt_id, question_id, comment) values ($1, $2, $3) returning id", [attempt, exam.question, `${tag}mk${n}`]);
        ids.push(rows[0]!.id);
      }
      return ids;
    },
  },
  "org/faceRule": {
    text: "name",
    marker: (n) => `${tag}fr${n}`,
    body: (n) => ({ name: `${tag}fr${n}`, before_start: true, every_minutes: n, random_count: 0, threshold: 0.6, liveness: false, max_failures: n, action: "flag", status: "enable" }),
  },
  "exam/faceReview": {
    text: "username",
    marker: (n) => `${tag}fv${n}`,
    // Three members' official attempts in a room with a face rule.
    async seed() {
      const exam = await examFixture("fv");
      const rule = (await t.database.db.query<{ id: number }>("insert into face_rule (name) values ($1) returning id", [`${tag}fvrule`])).rows[0]!.id;
      await t.database.db.query("update exam_room set face_rule_id = $1 where id = $2", [rule, exam.room]);
      const ids: number[] = [];
      for (const n of [1, 2, 3]) ids.push(await exam.attempt(`${tag}fv${n}`));
      return ids;
    },
  },
  "exam/certificateTemplate": (() => {
    const courses: number[] = [];
    return {
      text: "title",
      marker: (n: number) => `${tag}ct${n}`,
      async prepare() {
        for (const n of [1, 2, 3]) courses[n] = (await createCourse(t.database.db, { title: `${tag}ctc${n}` })).id;
      },
      body: (n: number) => ({ course_id: courses[n], title: `${tag}ct${n}`, wording: "{name}", text_color: "#000000", accent_color: "#111111", status: "enable" }),
    };
  })(),
  "exam/certificate": {
    text: "username",
    marker: (n) => `${tag}ce${n}`,
    // Three members' certificates.
    async seed() {
      const ids: number[] = [];
      for (const n of [1, 2, 3]) {
        const member = await createMember(t.database.db, { username: `${tag}ce${n}` });
        const { rows } = await t.database.db.query<{ id: number }>(
          "insert into certificate (serial, user_id, title, member_name, text_color, accent_color, issued_at) values ($1, $2, 'T', 'N', '#000000', '#000000', $3) returning id",
          [newSerial(), member.id, 1_700_000_000 + n],
        );
        ids.push(rows[0]!.id);
      }
      return ids;
    },
  },
  "user/notice": {
    text: "username",
    marker: (n) => `${tag}no${n}`,
    // Three members' notices (the tick's rows, written here as it writes them).
    async seed() {
      const ids: number[] = [];
      for (const n of [1, 2, 3]) {
        const member = await createMember(t.database.db, { username: `${tag}no${n}` });
        const { rows } = await t.database.db.query<{ id: number }>(
          "insert into notice (user_id, kind, ref, data, create_time) values ($1, 'room_open', $2, '{}', $3) returning id",
          [member.id, String(n), 1_700_000_000 + n],
        );
        ids.push(Number(rows[0]!.id));
      }
      return ids;
    },
  },
  "exam/lateAnswer": {
    text: "username",
    marker: (n) => `${tag}la${n}`,
    // Three members' answers that arrived after the deadline.
    async seed() {
      const exam = await examFixture("la");
      const ids: number[] = [];
      for (const n of [1, 2, 3]) {
        const attempt = await exam.attempt(`${tag}la${n}`);
        const { rows } = await t.database.db.query<{ id: number }>("insert into exam_late_answer (attempt_id, question_id, answer, received_at) values ($1, $2, '\"late\"', $3) returning id", [attempt, exam.question, Date.now()]);
        ids.push(rows[0]!.id);
      }
      return ids;
    },
  },
  "exam/classify": { text: "title", marker: (n) => `${tag}c${n}`, body: (n) => ({ pid: 0, title: `${tag}c${n}`, title_en: `Bank ${n}`, weigh: n }) },
  "exam/questionType": {
    text: "title",
    marker: (n) => `${tag}qt${n}`,
    body: (n) => ({ title: `${tag}qt${n}`, title_en: `Type ${n}`, default_score: n }),
    // The five kinds are fixed (edit only): three of them renamed.
    async seed() {
      const ids: number[] = [];
      for (const [n, type] of [[1, "single"], [2, "multiple"], [3, "judge"]] as const) {
        const { rows } = await t.database.db.query<{ id: number }>("update exam_question_type set title = $1 where type = $2 returning id", [`${tag}qt${n}`, type]);
        ids.push(rows[0]!.id);
      }
      return ids;
    },
  },
  "exam/question": (() => {
    let bank = 0;
    return {
      text: "stem",
      marker: (n: number) => `${tag}q${n}`,
      async prepare() {
        bank = await createBank(t.database.db);
      },
      body: (n: number) => ({
        classify_id: bank,
        type: "single",
        stem: `${tag}q${n}`,
        options: [
          { key: "A", text: "one" },
          { key: "B", text: "two" },
        ],
        answer: "B",
        score: n,
      }),
    };
  })(),
  "auth/adminLog": {
    text: "username",
    marker: (n) => `${tag}l${n}`,
    // Three admins each write once through the back office: three log rows.
    async seed() {
      const ids: number[] = [];
      for (const n of [1, 2, 3]) {
        const writer = await createAdmin(t.database.db, { username: `${tag}l${n}` });
        const res = await t.app.inject({ method: "POST", url: "/admin/auth/group/add", headers: writer.headers, payload: { name: `${tag}log${n}` } });
        expect(res.json().code).toBe(1);
        const { rows } = await t.database.db.query<{ id: number }>("select id from admin_log where admin_id = $1", [writer.id]);
        ids.push(rows[0]!.id);
      }
      return ids;
    },
  },
};

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

interface Envelope {
  code: number;
  msg: string;
  data: { list: Body[]; total: number; remark: string; row: Body; id: number; count: number } & Body;
}

/** `GET /admin/<rule>/index` with a nested query as the client's axios sends it (`search[0][field]=...`). */
async function list(def: ResourceDef, params: Record<string, unknown>): Promise<Envelope> {
  const search = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    if (Array.isArray(value)) value.forEach((v, i) => add(`${key}[${i}]`, v));
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else if (value !== undefined) search.append(key, String(value));
  };
  for (const [k, v] of Object.entries(params)) add(k, v);
  return (await t.app.inject({ method: "GET", url: `/admin/${def.rule}/index?${search}`, headers: root.headers })).json() as Envelope;
}

const idsOf = (answer: Envelope) => answer.data.list.map((r) => r.id as number);
const rowCount = async (def: ResourceDef) => (await t.database.db.query<{ n: number }>(`select count(*)::int as n from ${def.table}`)).rows[0]!.n;

describe.each(resources.map((def) => [def.rule, def] as const))("resource %s", (rule, def) => {
  const fixture = fixtures[rule];
  let ids: number[] = [];
  const within = () => ({ field: "id", operator: "IN", val: ids.join(",") });
  const only = async (item: Body, order = "id,asc") => idsOf(await list(def, { search: [within(), item], order, limit: 100 }));

  beforeAll(async () => {
    expect(fixture, `a fixture for ${rule} in this test`).toBeDefined();
    if (def.add) {
      await fixture!.prepare?.();
      for (const n of [1, 2, 3]) {
        const res = (await t.app.inject({ method: "POST", url: `/admin/${rule}/add`, headers: root.headers, payload: fixture!.body!(n) })).json() as Envelope;
        expect(res, JSON.stringify(res)).toMatchObject({ code: 1 });
        ids.push(res.data.id);
      }
    } else {
      ids = await fixture!.seed!();
    }
    ids.sort((a, b) => a - b);
  });

  it("answers {list, total, remark} with paging and order", async () => {
    const [a, b, c] = ids as [number, number, number];
    const asc = await list(def, { search: [within()], order: "id,asc" });
    expect(asc.code).toBe(1);
    expect(idsOf(asc)).toEqual([a, b, c]);
    expect(asc.data).toMatchObject({ total: 3, remark: "" });
    expect(idsOf(await list(def, { search: [within()], order: "id,desc" }))).toEqual([c, b, a]);
    const page2 = await list(def, { search: [within()], order: "id,asc", limit: 2, page: 2 });
    expect(idsOf(page2)).toEqual([c]);
    expect(page2.data.total).toBe(3);
    // The resource's default order (id desc unless it says), default page size 10.
    const plain = await list(def, {});
    expect(plain.data.list.length).toBeLessThanOrEqual(10);
    const plainIds = idsOf(plain);
    const [field, dir] = def.defaultOrder ?? ["id", "desc"];
    if (field === "id") expect(plainIds).toEqual([...plainIds].sort((x, y) => (dir === "desc" ? y - x : x - y)));
    for (const row of plain.data.list) expect(Object.keys(row)).not.toContain("password_hash");
  });

  it("filters with every operator", async () => {
    const [a, b, c] = ids as [number, number, number];
    const cases: [Body, number[]][] = [
      [{ field: "id", operator: "eq", val: a }, [a]],
      [{ field: "id", operator: "ne", val: a }, [b, c]],
      [{ field: "id", operator: "gt", val: a }, [b, c]],
      [{ field: "id", operator: "egt", val: b }, [b, c]],
      [{ field: "id", operator: "lt", val: c }, [a, b]],
      [{ field: "id", operator: "elt", val: b }, [a, b]],
      [{ field: "id", operator: "IN", val: `${a},${c}` }, [a, c]],
      [{ field: "id", operator: "NOT IN", val: `${a}` }, [b, c]],
      [{ field: "id", operator: "RANGE", val: `${a},${b}` }, [a, b]],
      [{ field: "id", operator: "RANGE", val: `${b},` }, [b, c]],
      [{ field: "id", operator: "RANGE", val: `,${a}` }, [a]],
      [{ field: "id", operator: "NOT RANGE", val: `${b},${b}` }, [a, c]],
      [{ field: "id", operator: "NOT RANGE", val: `${b},` }, [a]],
      [{ field: "id", operator: "NOT RANGE", val: `,${b}` }, [c]],
      [{ field: "id", operator: "NULL" }, []],
      [{ field: "id", operator: "NOT NULL" }, [a, b, c]],
      [{ field: fixture!.text, operator: "LIKE", val: fixture!.marker(2) }, [b]],
      [{ field: fixture!.text, operator: "LIKE", val: fixture!.marker(2).toUpperCase() }, [b]],
      [{ field: fixture!.text, operator: "NOT LIKE", val: fixture!.marker(2) }, [a, c]],
      [{ field: fixture!.text, operator: "eq", val: fixture!.marker(3) }, [c]],
      // The user's wildcards are matched literally.
      [{ field: fixture!.text, operator: "LIKE", val: "%" }, []],
      [{ field: fixture!.text, operator: "LIKE", val: "_" }, []],
    ];
    for (const [item, expected] of cases) expect(await only(item), JSON.stringify(item)).toEqual(expected);
  });

  it("quick-searches its quick-search fields, case-insensitively, wildcards literal", async () => {
    const [, b] = ids as [number, number, number];
    expect(idsOf(await list(def, { quickSearch: tag.toUpperCase(), search: [within()], order: "id,asc" }))).toEqual(ids);
    expect(idsOf(await list(def, { quickSearch: fixture!.marker(2) }))).toEqual([b]);
    expect(idsOf(await list(def, { quickSearch: `${tag}%`, search: [within()] }))).toEqual([]);
  });

  it("preloads a remote select's chosen value", async () => {
    const [, b] = ids as [number, number, number];
    const answer = await list(def, { select: 1, initKey: "id", initValue: String(b) });
    expect(answer.code).toBe(1);
    expect(idsOf(answer)).toEqual([b]);
  });

  it("answers GET edit with the row, never a password hash; an unknown id is code 0", async () => {
    const [, b] = ids as [number, number, number];
    const res = (await t.app.inject({ method: "GET", url: `/admin/${rule}/edit?id=${b}`, headers: root.headers })).json() as Envelope;
    expect(res.code).toBe(1);
    expect(res.data.row).toMatchObject({ id: b, [fixture!.text]: fixture!.marker(2) });
    expect(Object.keys(res.data.row)).not.toContain("password_hash");
    for (const id of ["2147483647", "99999999999999999999", "abc", "-1", ""]) {
      const bad = (await t.app.inject({ method: "GET", url: `/admin/${rule}/edit?id=${id}`, headers: root.headers })).json() as Envelope;
      expect(bad.code, id).toBe(0);
    }
  });

  it("edits a row (POST edit) and deletes rows (DELETE del)", async () => {
    const [a, , c] = ids as [number, number, number];
    if (def.edit) {
      const body = { ...fixture!.body!(1), [fixture!.text]: `${fixture!.marker(1)}e`, password: "", id: a };
      const res = (await t.app.inject({ method: "POST", url: `/admin/${rule}/edit`, headers: root.headers, payload: body })).json() as Envelope;
      expect(res, JSON.stringify(res)).toMatchObject({ code: 1 });
      expect(await only({ field: fixture!.text, operator: "eq", val: `${fixture!.marker(1)}e` })).toEqual([a]);
    } else {
      expect((await t.app.inject({ method: "POST", url: `/admin/${rule}/edit`, headers: root.headers, payload: { id: a } })).statusCode).toBe(404);
    }
    if (def.del) {
      const res = (await t.app.inject({ method: "DELETE", url: `/admin/${rule}/del?ids[]=${c}&ids[]=${c}`, headers: root.headers })).json() as Envelope;
      expect(res).toMatchObject({ code: 1, data: { count: 1 } });
      expect(await only({ field: "id", operator: "NOT NULL" })).toEqual(ids.filter((id) => id !== c));
      ids = ids.filter((id) => id !== c);
      // Nothing left to delete: code 0.
      expect((await t.app.inject({ method: "DELETE", url: `/admin/${rule}/del?ids[]=${c}`, headers: root.headers })).json().code).toBe(0);
    } else {
      expect((await t.app.inject({ method: "DELETE", url: `/admin/${rule}/del?ids[]=${c}`, headers: root.headers })).statusCode).toBe(404);
    }
  });

  it("swaps two rows' weigh with POST sortable, if sortable (else has no such route)", async () => {
    if (!def.sortable) {
      expect((await t.app.inject({ method: "POST", url: `/admin/${rule}/sortable`, headers: root.headers, payload: { id: ids[0], targetId: ids[1] } })).statusCode).toBe(404);
      return;
    }
    const [a, b] = ids as [number, number];
    const weigh = async (id: number) => (await t.database.db.query<{ weigh: number }>(`select weigh from ${def.table} where id = $1`, [id])).rows[0]!.weigh;
    await t.database.db.query(`update ${def.table} set weigh = case when id = $1 then 5 else 9 end where id in ($1, $2)`, [a, b]);
    const res = (await t.app.inject({ method: "POST", url: `/admin/${rule}/sortable`, headers: root.headers, payload: { id: a, targetId: b } })).json();
    expect(res.code).toBe(1);
    expect([await weigh(a), await weigh(b)]).toEqual([9, 5]);
    // Rows of equal weight list in the order they were made, as members and the menus see them.
    await t.database.db.query(`update ${def.table} set weigh = 7 where id = any($1::int[])`, [ids]);
    expect(await only({ field: "id", operator: "NOT NULL" }, "weigh,desc")).toEqual([...ids].sort((x, y) => x - y));
  });

  it("refuses unknown fields and operators, hostile orders and wrong-typed values with code 0, changing nothing", async () => {
    const before = await rowCount(def);
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ search: [{ field: "password_hash", operator: "eq", val: "x" }] }, /cannot be searched/],
      [{ search: [{ field: "nope", operator: "eq", val: "1" }] }, /cannot be searched/],
      [{ search: [{ field: "id", operator: "FOO", val: "1" }] }, /operator FOO cannot be used on id/],
      [{ search: [{ field: "id", operator: "LIKE", val: "1" }] }, /operator LIKE cannot be used on id/],
      [{ search: [{ field: "id", operator: "eq", val: "abc" }] }, /search value of id is not valid/],
      [{ search: [{ field: "id", operator: "eq", val: "99999999999999" }] }, /search value of id is not valid/],
      [{ search: [{ field: "id", operator: "RANGE", val: "," }] }, /search value of id is not valid/],
      [{ search: [{ field: "id", operator: "RANGE", val: "1,2,3" }] }, /search value of id is not valid/],
      [{ search: [{ field: "id", operator: "IN", val: "" }] }, /search value of id is not valid/],
      [{ search: [{ field: "__proto__", operator: "eq", val: "1" }] }, /./],
      [{ search: "id" }, /search conditions are not valid/],
      [{ order: "id;drop table admin,asc" }, /cannot be ordered/],
      [{ order: "id,asc;select 1" }, /cannot be ordered/],
      [{ order: "password_hash,asc" }, /cannot be ordered/],
      [{ order: "(select 1),desc" }, /cannot be ordered/],
      [{ limit: 1000 }, /page size/],
      [{ limit: 0 }, /page size/],
      [{ page: "99999999999999" }, /page number/],
      [{ quickSearch: ["a", "b"] }, /./],
      [{ quickSearch: "x".repeat(101) }, /too long/],
    ];
    for (const [params, message] of refused) {
      const res = await list(def, params);
      expect(res.code, JSON.stringify(params)).toBe(0);
      expect(res.msg, JSON.stringify(params)).toMatch(message);
    }
    const nul = await t.app.inject({ method: "GET", url: `/admin/${rule}/index?quickSearch=%00`, headers: root.headers });
    expect(nul.statusCode).toBe(200);
    expect(nul.json().code).toBe(0);
    if (def.add) {
      for (const payload of [{}, { ...fixture!.body!(9), [fixture!.text]: ["x"] }, { ...fixture!.body!(9), [fixture!.text]: "a\u0000b" }, [1, 2]]) {
        const res = await t.app.inject({ method: "POST", url: `/admin/${rule}/add`, headers: root.headers, payload: payload as Body });
        expect(res.statusCode, JSON.stringify(payload)).toBe(200);
        expect(res.json().code, JSON.stringify(payload)).toBe(0);
      }
    }
    if (def.del) {
      for (const q of ["ids[]=abc", "ids[]=99999999999", "", "ids[]=0"]) {
        const res = await t.app.inject({ method: "DELETE", url: `/admin/${rule}/del?${q}`, headers: root.headers });
        expect(res.statusCode, q).toBe(200);
        expect(res.json().code, q).toBe(0);
      }
    }
    expect(await rowCount(def)).toBe(before);
  });
});
