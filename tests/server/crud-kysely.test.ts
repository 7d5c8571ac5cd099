import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kyselyOf } from "../../src/server/db/kysely.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

/** Kysely over the database seam: the same statements on PGlite and PostgreSQL, inside our transactions. */

interface DB {
  app_meta: { key: string; value: string };
}

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

describe("Kysely over the Queryable seam (" + (process.env.TEST_DATABASE_URL ? "postgres" : "pglite") + ")", () => {
  it("inserts, selects with parameters, updates and deletes, reporting affected rows", async () => {
    const k = kyselyOf<DB>(t.db);
    await k.insertInto("app_meta").values([{ key: "ky_a", value: "1" }, { key: "ky_b", value: "it's; drop table admin" }]).execute();
    const rows = await k.selectFrom("app_meta").select(["key", "value"]).where("key", "like", "ky\\_%").orderBy("key").execute();
    expect(rows).toEqual([{ key: "ky_a", value: "1" }, { key: "ky_b", value: "it's; drop table admin" }]);
    const updated = await k.updateTable("app_meta").set({ value: "2" }).where("key", "=", "ky_a").executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    const deleted = await k.deleteFrom("app_meta").where("key", "in", ["ky_a", "ky_b", "ky_none"]).executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(2n);
    const { count } = await k.selectFrom("app_meta").select((eb) => eb.fn.countAll<number>().as("count")).where("key", "like", "ky\\_%").executeTakeFirstOrThrow();
    expect(Number(count)).toBe(0);
  });

  it("runs inside the seam's transaction: committed together, or rolled back together", async () => {
    await t.db.transaction(async (tx) => {
      await kyselyOf<DB>(tx).insertInto("app_meta").values({ key: "ky_tx1", value: "x" }).execute();
    });
    await expect(
      t.db.transaction(async (tx) => {
        await kyselyOf<DB>(tx).insertInto("app_meta").values({ key: "ky_tx2", value: "x" }).execute();
        // The same key again: the whole transaction fails and nothing of it stays.
        await kyselyOf<DB>(tx).insertInto("app_meta").values({ key: "ky_tx2", value: "y" }).execute();
      }),
    ).rejects.toThrow();
    const keys = (await kyselyOf<DB>(t.db).selectFrom("app_meta").select("key").where("key", "like", "ky\\_tx%").execute()).map((r) => r.key);
    expect(keys).toEqual(["ky_tx1"]);
  });

  it("refuses Kysely's own transaction (transactions are the seam's) and keeps raw sql fragments parameterised", async () => {
    await expect(kyselyOf<DB>(t.db).transaction().execute(async () => 1)).rejects.toThrow(/Database.transaction/);
    const hostile = "'; drop table app_meta; --";
    const { rows } = await sql<{ v: string }>`select ${hostile}::text as v`.execute(kyselyOf(t.db));
    expect(rows[0]!.v).toBe(hostile);
  });
});
