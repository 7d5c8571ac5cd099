import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ListAnswer } from "../../src/shared/admin/crud.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { callers } from "../helpers/call.ts";
import { createAdmin, createBank, type TestAdmin } from "../helpers/factories.ts";

/**
 * The lists read through their indexes list what the plain reading of the table finds.
 *
 * The quick search over the trigram indexes (migrations 0058, 0061): the members a quick
 * search lists are exactly those the plain reading of the table finds (the text anywhere in the
 * username, nickname, email or mobile, any case, `%` and `_` literal; an id only as that number),
 * whether a member's index entries are still in the index's pending list or already merged, for
 * texts with trigrams and texts too short for one, a search finding a few rows (its page read
 * among the ids found) and one finding many (the list's order walked).
 *
 * A bank's questions by update time, either way (migration 0062: their page from an index): every
 * page is the slice of the plain sort, ties broken by id the way the order runs.
 */

let t: TestApp;
let root: TestAdmin;
const { adminCall } = callers(() => t.app);
const q = async <T,>(text: string, params: unknown[] = []) => (await t.database.db.query<T>(text, params)).rows;

/** Members added as an import and the add screen do: 60 statements of 50 (the pending lists fill and are merged on the way). */
const MEMBERS = 3_000;

beforeAll(async () => {
  t = await createTestApp();
  root = await createAdmin(t.database.db);
  for (let from = 1; from <= MEMBERS; from += 50) {
    await q(
      `insert into member (username, nickname, email, mobile, password_hash)
       select 'qs' || g, '搜索员工' || g || case when g % 7 = 0 then ' Zhang_Wei' else '' end,
              case when g % 3 = 0 then null else 'qs' || g || '@Example.com' end, case when g % 5 = 0 then null else '139' || lpad(g::text, 8, '0') end, 'x'
       from generate_series($1::int, $1::int + 49) g`,
      [from],
    );
  }
});
afterAll(() => t.close());

/** Every page of the list's quick search for `text` (ids in the list's order), and its total. */
async function listed(text: string): Promise<{ ids: number[]; total: number }> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const res = await adminCall<ListAnswer<{ id: number }>>(root, "GET", `/admin/user/user/index?limit=100&page=${page}&quickSearch=${encodeURIComponent(text)}`);
    expect(res.code, res.msg).toBe(1);
    ids.push(...res.data.list.map((row) => row.id));
    if (res.data.list.length < 100) return { ids, total: res.data.total };
  }
}

/** The same search read plainly: every member tested in JavaScript, newest first (the list's order). */
async function plain(text: string): Promise<number[]> {
  const needle = text.trim().toLowerCase();
  const rows = await q<{ id: number; username: string; nickname: string; email: string | null; mobile: string | null }>("select id, username, nickname, email, mobile from member order by id desc");
  return rows.filter((m) => String(m.id) === needle || [m.username, m.nickname, m.email, m.mobile].some((v) => v !== null && v.toLowerCase().includes(needle))).map((m) => m.id);
}

describe("member quick search", () => {
  it("keeps each trigram index's pending list small (migration 0061)", async () => {
    const rows = await q<{ relname: string; reloptions: string[] | null }>(
      "select c.relname, c.reloptions from pg_class c where c.relname in ('exam_question_stem_trgm', 'member_username_trgm', 'member_nickname_trgm', 'member_email_trgm', 'member_mobile_trgm') order by 1",
    );
    expect(rows.map((r) => r.relname)).toEqual(["exam_question_stem_trgm", "member_email_trgm", "member_mobile_trgm", "member_nickname_trgm", "member_username_trgm"]);
    for (const row of rows) expect(row.reloptions, row.relname).toContain("gin_pending_list_limit=64");
  });

  it("lists exactly the members the plain reading finds", async () => {
    const some = (await q<{ id: number }>("select id from member where username = 'qs1234'"))[0]!.id;
    for (const text of ["搜索员工1234", "员工42", "QS77", "qs2999@example", "EXAMPLE.COM", "13900001", "00012", "zhang_wei", "Zhang_W", "g_w", "_", "%", "员", "99", "qs12", String(some), "nobody-like-this"]) {
      const expected = await plain(text);
      const got = await listed(text);
      expect(got.ids, text).toEqual(expected);
      expect(got.total, text).toBe(expected.length);
    }
  });
});

describe("a bank's questions by update time", () => {
  it("pages through the plain sort of the bank, either way", async () => {
    const bank = await createBank(t.database.db);
    const other = await createBank(t.database.db);
    // 45 questions, update times in threes (ties), one hidden (listed only when searched by status), another bank's between them.
    await q(
      `insert into exam_question (classify_id, type, stem, options, answer, analysis, difficulty, score, weigh, update_time, status)
       select case when g % 10 = 0 then $2::int else $1::int end, 'judge', 'q' || g, '[]', '"T"', '', 1, 1, 0, 1795000000 + (g / 3) * 60,
              case when g = 17 then 'hidden' else 'enable' end
       from generate_series(1, 50) g`,
      [bank, other],
    );
    for (const dir of ["desc", "asc"] as const) {
      const expected = (
        await q<{ id: number }>(
          `select id from exam_question where classify_id = $1 and status <> 'hidden' order by update_time ${dir}, id ${dir}`,
          [bank],
        )
      ).map((r) => r.id);
      const got: number[] = [];
      for (let page = 1; page <= 5; page++) {
        const res = await adminCall<ListAnswer<{ id: number }>>(
          root,
          "GET",
          `/admin/exam/question/index?limit=10&page=${page}&order=update_time,${dir}&search[0][field]=classify_id&search[0][operator]=eq&search[0][val]=${bank}`,
        );
        expect(res.code, res.msg).toBe(1);
        expect(res.data.total).toBe(expected.length);
        got.push(...res.data.list.map((row) => row.id));
      }
      expect(got, dir).toEqual(expected);
    }
  });
});
