import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListAnswer } from "../../src/shared/admin/crud.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, createMember, createQuestion, type TestAdmin } from "../helpers/factories.ts";

/**
 * The lists' quick search as trigram indexes serve it (migration 0058, crud/query.ts): the text
 * anywhere in a stem or a member's fields, Chinese of every length (one or two characters are too
 * short for a trigram: the same rows, found by reading the table), `%` and `_` matched literally,
 * and an id only by its number.
 */

let t: TestApp;
let root: TestAdmin;
const { adminCall } = callers(() => t.app, { refuse5xx: true });
const q = (text: string, params: unknown[] = []) => t.database.db.query(text, params);

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
});
afterAll(() => t.close());

async function ids(path: string, quick: string, filter = ""): Promise<number[]> {
  const answer = await adminCall<ListAnswer<{ id: number }>>(root, "GET", `/admin/${path}/index?limit=100&order=id,asc&quickSearch=${encodeURIComponent(quick)}${filter}`);
  expect(answer.code, JSON.stringify(answer)).toBe(1);
  expect(answer.data!.total).toBe(answer.data!.list.length);
  return answer.data!.list.map((row) => row.id);
}

describe("quick search of the question list", () => {
  let bank: number;
  let safety: number, exits: number, percent: number, digits: number, fire: number, other: number;
  const stems = new Map<number, string>();
  const find = (quick: string) => ids("exam/question", quick, `&search[0][field]=classify_id&search[0][operator]=eq&search[0][val]=${bank}`);
  const add = async (stem: string) => {
    const id = await createQuestion(t.database.db, bank, { stem });
    stems.set(id, stem);
    return id;
  };

  beforeAll(async () => {
    bank = await createBank(t.database.db);
    safety = await add("下列关于安全生产的说法中，哪一项是正确的？");
    exits = await add("消防通道应当保持畅通，不得堆放杂物。");
    percent = await add("全体员工 100% 参加 a_b 培训");
    digits = await add("全体员工 1000 人参加 axb 培训");
    fire = await add("Which FIRE exit is nearest?");
    other = await add("A question about nothing");
  });

  it("finds Chinese text in the middle of a stem, of one, two and more characters", async () => {
    expect(await find("安全生产")).toEqual([safety]);
    expect(await find("关于安全生产的说法")).toEqual([safety]);
    expect(await find("畅通")).toEqual([exits]);
    expect(await find("堆")).toEqual([exits]);
    expect(await find("员工")).toEqual([percent, digits]);
    expect(await find("培训")).toEqual([percent, digits]);
    expect(await find("生产安全")).toEqual([]);
  });

  it("pages the rows it finds in the list's order, with their total", async () => {
    const page = async (n: number, order: string) =>
      (await adminCall<ListAnswer<{ id: number }>>(root, "GET", `/admin/exam/question/index?limit=1&page=${n}&order=${order}&quickSearch=${encodeURIComponent("员工")}&search[0][field]=classify_id&search[0][val]=${bank}`)).data!;
    expect(await page(1, "id,desc")).toMatchObject({ list: [{ id: digits }], total: 2 });
    expect(await page(2, "id,desc")).toMatchObject({ list: [{ id: percent }], total: 2 });
    expect(await page(2, "id,asc")).toMatchObject({ list: [{ id: digits }], total: 2 });
    expect(await page(3, "id,asc")).toMatchObject({ list: [], total: 2 });
  });

  it("matches case-insensitively, from inside a word", async () => {
    expect(await find("fire EX")).toEqual([fire]);
    expect(await find("uestio")).toEqual([other]);
  });

  it("matches % and _ literally", async () => {
    expect(await find("100%")).toEqual([percent]);
    expect(await find("a_b")).toEqual([percent]);
    expect(await find("%")).toEqual([percent]);
    expect(await find("_")).toEqual([percent]);
    expect(await find("a%b")).toEqual([]);
  });

  it("finds a question by its id (or the number in its stem), not by digits inside another id", async () => {
    for (const id of [digits, other]) {
      const inStem = [...stems].filter(([, stem]) => stem.includes(String(id))).map(([n]) => n);
      expect(await find(String(id))).toEqual([...new Set([id, ...inStem])].sort((a, b) => a - b));
    }
    expect(await find("1000")).toEqual([digits]);
    expect(await find(`${other}0000`)).toEqual([]);
  });
});

describe("quick search of the member list", () => {
  it("finds a member by part of the mobile, email, nickname or username, and by id", async () => {
    // Letters only: no digit of the mobile is in the other fields.
    const tag = String(Date.now()).slice(-6).replace(/\d/g, (d) => "abcdefghij"[Number(d)]!);
    const mobile = "13987654321";
    const zhang = await createMember(t.database.db, { username: `qs_zhang_${tag}`, mobile, email: `zhang.${tag}@example.com` });
    const li = await createMember(t.database.db, { username: `qs_li_${tag}`, email: `li_${tag}@example.org` });
    const lix = await createMember(t.database.db, { username: `qs_lix${tag}` });
    await q("update member set nickname = $2 where id = $1", [zhang.id, `张三丰${tag}`]);
    await q("update member set nickname = $2 where id = $1", [li.id, `李四${tag}`]);

    expect(await ids("user/user", mobile.slice(3, 9))).toEqual([zhang.id]);
    expect(await ids("user/user", mobile)).toEqual([zhang.id]);
    expect(await ids("user/user", `${tag}@example.org`)).toEqual([li.id]);
    expect(await ids("user/user", `三丰${tag}`)).toEqual([zhang.id]);
    expect(await ids("user/user", "四")).toContain(li.id);
    expect(await ids("user/user", `QS_LI_${tag}`)).toEqual([li.id]);
    // `_` matched literally: not "lix" + the tag.
    expect(await ids("user/user", `li_${tag}`)).toEqual([li.id]);
    expect(await ids("user/user", `lix${tag}`)).toEqual([lix.id]);
    expect(await ids("user/user", String(li.id))).toContain(li.id);
  });
});
