import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  assign,
  createBankWithQuestions,
  createClassroom,
  createCompany,
  createCourse,
  createDuty,
  createMember,
  createPaper,
  createRoom,
  type TestMember,
} from "../helpers/factories.ts";

/**
 * Who sees which courses, exam rooms, banks and papers (modules/org/visibility.ts),
 * over the member endpoints themselves: content assigned to a company (open to its
 * sub-companies' members too), a duty or a classroom is listed and opened only for those
 * members; content assigned to nobody is open to all; nobody logged in sees only the latter.
 */

let t: TestApp;
const tag = `v${Math.random().toString(36).slice(2, 7)}`;
type Name = "open" | "company" | "duty" | "classroom";
const NAMES: Name[] = ["open", "company", "duty", "classroom"];
const courses = {} as Record<Name, { id: number; lessonIds: number[] }>;
const rooms = {} as Record<Name, number>;
const banks = {} as Record<Name, { id: number; questionIds: number[] }>;
const papers = {} as Record<Name, number>;
const members = {} as Record<"sub" | "other" | "duty" | "pupil" | "nobody" | "offClass", TestMember>;

/** What each member may see, by the content's name. */
const SEES: Record<keyof typeof members, Name[]> = {
  sub: ["open", "company"], // in a company under the assigned one
  other: ["open"], // another company
  duty: ["open", "duty"],
  pupil: ["open", "classroom"],
  offClass: ["open"], // sits in the assigned classroom only while it is disabled
  nobody: ["open"],
};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const parent = await createCompany(db, { name: `${tag} parent` });
  const sub = await createCompany(db, { name: `${tag} sub`, pid: parent });
  const other = await createCompany(db, { name: `${tag} other` });
  const duty = await createDuty(db);
  members.sub = await createMember(db, { companyId: sub });
  members.other = await createMember(db, { companyId: other });
  members.duty = await createMember(db, { dutyId: duty });
  members.pupil = await createMember(db);
  members.offClass = await createMember(db);
  members.nobody = await createMember(db);
  const classroom = await createClassroom(db, { memberIds: [members.pupil.id] });
  const offClassroom = await createClassroom(db, { memberIds: [members.offClass.id], status: "disable" });
  const to: Record<Name, Parameters<typeof assign>[3] | null> = {
    open: null,
    company: { companies: [parent] },
    duty: { duties: [duty] },
    classroom: { classrooms: [classroom, offClassroom] },
  };
  // The rooms' papers draw from an exam-only bank of their own (an open room withholds what its paper can hold).
  const roomBank = await createBankWithQuestions(db, 1, { kind: "exam" });
  for (const name of NAMES) {
    courses[name] = await createCourse(db, { title: `${tag} course ${name}`, lessons: [{}, { freePreview: true }] });
    banks[name] = await createBankWithQuestions(db, 2, { title: `${tag} bank ${name}` });
    papers[name] = await createPaper(db, { title: `${tag} paper ${name}`, rows: [{ fixed: banks[name].questionIds[0]! }] });
    const roomPaper = await createPaper(db, { rows: [{ draw: roomBank.id, count: 1 }] });
    rooms[name] = await createRoom(db, roomPaper, { title: `${tag} room ${name}` });
    if (to[name]) {
      await assign(db, "course", courses[name].id, to[name]);
      await assign(db, "room", rooms[name], to[name]);
      await assign(db, "bank", banks[name].id, to[name]);
    }
  }
});
afterAll(() => t.close());

const get = async (url: string, who: TestMember | null) =>
  (await t.app.inject({ method: "GET", url, headers: who ? who.headers : { "think-lang": "en" } })).json() as { code: number; msg: string; data: Record<string, unknown> };
const post = async (url: string, who: TestMember, payload: unknown) =>
  (await t.app.inject({ method: "POST", url, headers: who.headers, payload: payload as Record<string, unknown> })).json() as { code: number; msg: string; data: Record<string, unknown> };
const named = <T>(map: Record<Name, T>, pick: (v: T) => number, ids: number[]) => NAMES.filter((n) => ids.includes(pick(map[n])));

interface Node {
  id: number;
  children: Node[];
}
const flatten = (nodes: Node[]): number[] => nodes.flatMap((n) => [n.id, ...flatten(n.children)]);

describe.each(Object.keys(SEES) as (keyof typeof members)[])("member %s", (who) => {
  const sees = SEES[who];
  const hidden = NAMES.filter((n) => !sees.includes(n));

  it("lists and opens only the courses and lessons open to them", async () => {
    const member = members[who];
    const list = await get(`/api/course/list?keyword=${tag}&limit=50`, member);
    expect(list.code).toBe(1);
    expect(named(courses, (c) => c.id, (list.data.list as { id: number }[]).map((c) => c.id))).toEqual(sees);
    expect(list.data.total).toBe(sees.length);
    for (const name of NAMES) {
      const open = sees.includes(name);
      expect((await get(`/api/course/detail?id=${courses[name].id}`, member)).code, `detail of ${name}`).toBe(open ? 1 : 0);
      // Even the free preview lesson of a hidden course stays closed.
      expect((await get(`/api/course/lesson?id=${courses[name].lessonIds[1]}`, member)).code, `preview of ${name}`).toBe(open ? 1 : 0);
    }
    for (const name of hidden) {
      const enrol = await post("/api/course/enrol", member, { courseId: courses[name].id });
      expect(enrol.code, `enrol in ${name}`).toBe(0);
    }
    const my = await get("/api/course/my", member);
    expect(named(courses, (c) => c.id, (my.data.list as { id: number }[]).map((c) => c.id)).every((n) => sees.includes(n))).toBe(true);
  });

  it("lists only the banks, papers and rooms open to them, and opens no other", async () => {
    const member = members[who];
    const catalog = await get("/api/exam/catalog", member);
    expect(catalog.code).toBe(1);
    expect(named(banks, (b) => b.id, flatten(catalog.data.classify as Node[]))).toEqual(sees);
    expect(named(papers, (p) => p, (catalog.data.papers as { id: number }[]).map((p) => p.id))).toEqual(sees);
    expect(named(rooms, (r) => r, (catalog.data.rooms as { id: number }[]).map((r) => r.id))).toEqual(sees);
    for (const name of NAMES) {
      const open = sees.includes(name);
      expect((await get(`/api/exam/bank?id=${banks[name].id}`, member)).code, `bank ${name}`).toBe(open ? 1 : 0);
      expect((await get(`/api/exam/paper?id=${papers[name]}`, member)).code, `paper ${name}`).toBe(open ? 1 : 0);
      const lookup = await get(`/api/exam/questions?ids=${banks[name].questionIds.join(",")}`, member);
      expect((lookup.data.questions as unknown[]).length, `questions of ${name}`).toBe(open ? 2 : 0);
    }
    for (const name of hidden) {
      const start = await post("/api/exam/official/start", member, { roomId: rooms[name] });
      expect(start.code, `start room ${name}`).toBe(0);
      expect(start.msg).toBe("This exam is not open to you");
      // Practising a hidden bank's question through the sync queue is refused too.
      const sync = await post("/api/exam/sync", member, {
        ops: [{ id: randomUUID(), type: "practice.answer", at: Date.now(), payload: { questionId: banks[name].questionIds[0], bankId: banks[name].id, answer: "A" } }],
      });
      expect((sync.data.results as { status: string }[])[0]!.status).toBe("rejected");
    }
  });
});

describe("nobody logged in", () => {
  it("sees and opens only the courses open to all", async () => {
    const list = await get(`/api/course/list?keyword=${tag}&limit=50`, null);
    expect(named(courses, (c) => c.id, (list.data.list as { id: number }[]).map((c) => c.id))).toEqual(["open"]);
    expect((await get(`/api/course/detail?id=${courses.company.id}`, null)).code).toBe(0);
    expect((await get(`/api/course/lesson?id=${courses.company.lessonIds[1]}`, null)).code).toBe(0);
    expect((await get(`/api/course/lesson?id=${courses.open.lessonIds[1]}`, null)).code).toBe(1);
  });
});
