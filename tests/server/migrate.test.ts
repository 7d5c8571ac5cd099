import { afterEach, describe, expect, it, vi } from "vitest";
import type { Database } from "../../src/server/db/index.ts";
import { bundledMigrations, migrate, type Migration } from "../../src/server/db/migrate.ts";
import { demoParts, seedDemo } from "../../src/server/demo/index.ts";
import { DEMO_ADMIN, DEMO_MEMBER } from "../../src/server/demo/accounts.ts";
import { verifyPassword } from "../../src/server/auth/password.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

async function schemaShape(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ t: string; c: string; d: string }>(
    `select table_name as t, column_name as c, data_type as d from information_schema.columns
     where table_schema = current_schema() order by 1, 2`,
  );
  return rows.map((r) => `${r.t}.${r.c}:${r.d}`);
}

describe("migrations", () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.drop();
    t = undefined;
  });

  it("are committed with unique, ordered versions", () => {
    expect(bundledMigrations.length).toBeGreaterThan(0);
    const versions = bundledMigrations.map((m) => m.version);
    expect([...versions].sort()).toEqual(versions);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it("apply on an empty database, and a second run is a no-op", async () => {
    t = await createTestDatabase({ migrated: false });
    const first = await migrate(t.db);
    expect(first).toEqual(bundledMigrations.map((m) => m.version));
    const shape = await schemaShape(t.db);
    expect(shape).toContain("member.password_hash:text");

    const second = await migrate(t.db);
    expect(second).toEqual([]);
    expect(await schemaShape(t.db)).toEqual(shape);
    const { rows } = await t.db.query<{ n: number }>("select count(*)::int as n from schema_migrations");
    expect(rows[0]!.n).toBe(bundledMigrations.length);
  });

  it("check a current database with one query and no transaction or lock (every start), and seeding a seeded demo database with one more", async () => {
    t = await createTestDatabase({ migrated: false });
    await migrate(t.db);
    await seedDemo(t.db);
    const query = vi.spyOn(t.db, "query");
    const transaction = vi.spyOn(t.db, "transaction");
    try {
      expect(await migrate(t.db)).toEqual([]);
      expect(await seedDemo(t.db)).toEqual([]);
      expect(query).toHaveBeenCalledTimes(2);
      expect(transaction).not.toHaveBeenCalled();
      // One migration not applied yet (a new release): the locked path applies it.
      const next: Migration = { version: "9998", name: "next", sql: "create table next_one (id int)" };
      expect(await migrate(t.db, [...bundledMigrations, next])).toEqual(["9998"]);
      expect(transaction).toHaveBeenCalledTimes(1);
      // A part not seeded yet (a new release's demo content): the locked path runs it, once.
      const ran: string[] = [];
      const part = { name: "benchNext", run: async () => void ran.push("benchNext") };
      expect(await seedDemo(t.db, [...demoParts, part])).toEqual(["benchNext"]);
      expect(await seedDemo(t.db, [...demoParts, part])).toEqual([]);
      expect(ran).toEqual(["benchNext"]);
    } finally {
      query.mockRestore();
      transaction.mockRestore();
    }
  });

  it("run at once by two migrators apply each migration exactly once", async () => {
    t = await createTestDatabase({ migrated: false });
    const other = (await t.openAnother()) ?? t.db; // a second connection on PostgreSQL
    const [a, b] = await Promise.all([migrate(t.db), migrate(other)]);
    expect([...a, ...b].sort()).toEqual(bundledMigrations.map((m) => m.version));
    const { rows } = await t.db.query<{ n: number }>("select count(*)::int as n from schema_migrations");
    expect(rows[0]!.n).toBe(bundledMigrations.length);
  });

  it("roll back a failing migration completely", async () => {
    t = await createTestDatabase({ migrated: false });
    const broken: Migration[] = [
      ...bundledMigrations,
      { version: "9999", name: "broken", sql: "create table half_done (id int); select no_such_function();" },
    ];
    await expect(migrate(t.db, broken)).rejects.toThrow();
    const { rows } = await t.db.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_name in ('half_done', 'schema_migrations', 'member')",
    );
    expect(rows[0]!.n).toBe(0);
  });
});

describe("demo seed", () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.drop();
    t = undefined;
  });

  it("creates the README's accounts once on an empty database", async () => {
    t = await createTestDatabase();
    expect(await seedDemo(t.db)).toEqual(["accounts", "accountLogs", "accountLogsRetold", "exam", "examOfficial", "course", "org"]);
    expect(await seedDemo(t.db)).toEqual([]);
    const admins = await t.db.query<{ username: string; password_hash: string; is_super: boolean }>(
      "select username, password_hash, is_super from admin",
    );
    expect(admins.rows).toHaveLength(1);
    expect(admins.rows[0]!.username).toBe(DEMO_ADMIN.username);
    expect(admins.rows[0]!.is_super).toBe(true);
    expect(await verifyPassword(DEMO_ADMIN.password, admins.rows[0]!.password_hash)).toBe(true);
    const members = await t.db.query<{ password_hash: string }>("select password_hash from member where username = $1", [
      DEMO_MEMBER.username,
    ]);
    expect(await verifyPassword(DEMO_MEMBER.password, members.rows[0]!.password_hash)).toBe(true);
  });

  it("moves an older demo database's official exam onto exam-only questions", async () => {
    t = await createTestDatabase();
    // A demo database from before the exam-only part: its room used the fixed mock paper.
    expect(await seedDemo(t.db, demoParts.filter((p) => p.name !== "examOfficial"))).toEqual(["accounts", "accountLogs", "accountLogsRetold", "exam", "course", "org"]);
    const fixed = (await t.db.query<{ id: number }>("select id from exam_paper where title = '数学基础测验（固定）'")).rows[0]!.id;
    await t.db.query("insert into exam_room (paper_id, title, start_time, end_time, duration) values ($1, '数学基础正式考试', 0, $2, 900)", [fixed, 4_000_000_000]);
    expect(await seedDemo(t.db)).toEqual(["examOfficial"]);
    const rooms = await t.db.query<{ paper_id: number }>("select paper_id from exam_room");
    expect(rooms.rows).toHaveLength(1);
    expect(rooms.rows[0]!.paper_id).not.toBe(fixed);
    // The room's questions are all exam-only; no practice question is withheld.
    const withheld = await t.db.query<{ kind: string; n: number }>(
      `select c.kind, count(distinct w.question_id)::int as n from exam_withheld_question w
       join exam_question q on q.id = w.question_id join exam_classify c on c.id = q.classify_id group by c.kind`,
    );
    expect(withheld.rows).toEqual([{ kind: "exam", n: 30 }]);
  });

  it("never seeds a database that already had accounts", async () => {
    t = await createTestDatabase();
    await t.db.query("insert into member (username, password_hash) values ('someone', 'x')");
    expect(await seedDemo(t.db)).toEqual([]);
    const { rows } = await t.db.query<{ n: number }>("select count(*)::int as n from admin");
    expect(rows[0]!.n).toBe(0);
  });

  it("does not bring back a demo account an admin deleted", async () => {
    t = await createTestDatabase();
    await seedDemo(t.db);
    await t.db.query("delete from member where username = $1", [DEMO_MEMBER.username]);
    expect(await seedDemo(t.db)).toEqual([]);
    const { rows } = await t.db.query("select 1 from member where username = $1", [DEMO_MEMBER.username]);
    expect(rows).toHaveLength(0);
  });
});
