import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

/**
 * exam_attempt's storage (migration 0032): an official save (answers, answer times, last seen)
 * is a heap-only update, so 20,000 takers saving do not grow its indexes or make autovacuum scan
 * them; and ANALYZE, which that rate of updates runs every minute, skips the JSON columns.
 */
describe("exam_attempt storage", () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.drop();
    t = undefined;
  });

  it("keeps room on each page and no statistics for the JSON columns", async () => {
    t = await createTestDatabase();
    const { rows } = await t.db.query<{ reloptions: string[] | null }>("select reloptions from pg_class where oid = 'exam_attempt'::regclass");
    expect(rows[0]!.reloptions).toContain("fillfactor=80");
    const stats = await t.db.query<{ attname: string; target: number }>(
      `select attname, attstattarget::int as target from pg_attribute
       where attrelid = 'exam_attempt'::regclass and attname in ('questions', 'answers', 'answer_times', 'user_id', 'status') order by attname`,
    );
    // -1 (or null on PostgreSQL 17): the default target; 0: no statistics.
    const targets = Object.fromEntries(stats.rows.map((r) => [r.attname, r.target === null ? -1 : r.target]));
    expect(targets).toEqual({ answer_times: 0, answers: 0, questions: 0, status: -1, user_id: -1 });
  });

  it("keeps most attempts on their page through repeated saves (heap-only updates)", async () => {
    t = await createTestDatabase();
    const db = t.db;
    const member = await db.query<{ id: number }>("insert into member (username, password_hash) values ('hot', 'x') returning id");
    const paper = await db.query<{ id: number }>("insert into exam_paper (title) values ('hot') returning id");
    const questions = JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ id: i + 1, score: 5 })));
    // Enough attempts to fill pages as a big exam does (bulk, as they are started).
    await db.query(
      `insert into exam_attempt (uuid, user_id, kind, paper_id, questions, started_at)
       select 'u' || n, $1, 'mock', $2, $3::jsonb, 0 from generate_series(1, 300) n`,
      [member.rows[0]!.id, paper.rows[0]!.id, questions],
    );
    const pages = async () => {
      const { rows } = await db.query<{ id: number; page: number }>("select id, (ctid::text::point)[0]::int as page from exam_attempt where user_id = $1", [member.rows[0]!.id]);
      return new Map(rows.map((r) => [r.id, r.page]));
    };
    const before = await pages();
    expect(new Set(before.values()).size).toBeGreaterThan(10);
    // Six saves of every attempt, each its own transaction as a save is: a heap-only update
    // writes the new version on the same page (an update that finds no room there moves the
    // row to another page and adds index entries); the old versions are pruned as it goes.
    for (let round = 0; round < 6; round++) {
      const answers = JSON.stringify(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [i + 1, round % 2 ? "A" : "B"])));
      for (const id of before.keys()) {
        await db.query("update exam_attempt set answers = $1, answer_times = $2, last_seen_at = $3 where id = $4", [answers, JSON.stringify({ 1: round }), Date.now(), id]);
      }
    }
    const after = await pages();
    const stayed = [...before].filter(([id, page]) => after.get(id) === page).length;
    // Measured: 83 % of the rows stay on their page; with the default fillfactor (100), 57 %.
    expect(stayed / before.size).toBeGreaterThan(0.75);
  });
});
