import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedText, kyselyOf } from "../../src/server/db/kysely.ts";
import { visibleTo } from "../../src/server/modules/org/visibility.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

/**
 * The shared SQL rules are Kysely pieces: a statement takes them with its values as parameters,
 * a prepared statement as fixed text (fixedText) with its own placeholders. Both must be the one
 * rule; the members' endpoints test what it means (org-visibility.test.ts).
 */

let t: TestDatabase;
let openBank: number;
let assignedBank: number;
beforeAll(async () => {
  t = await createTestDatabase();
  const k = kyselyOf(t.db);
  const company = await k.insertInto("company").values({ name: "pieces" }).returning("id").executeTakeFirstOrThrow();
  openBank = (await k.insertInto("exam_classify").values({ title: "open to all" }).returning("id").executeTakeFirstOrThrow()).id;
  assignedBank = (await k.insertInto("exam_classify").values({ title: "one company's" }).returning("id").executeTakeFirstOrThrow()).id;
  await k.insertInto("org_access").values({ bank_id: assignedBank, company_id: company.id }).execute();
});
afterAll(() => t.drop());

const PLACEHOLDERS = /\$\d+/g;

describe("SQL pieces", () => {
  it("a prepared statement's fixed text keeps its own placeholders and refuses a value it cannot carry", () => {
    const text = fixedText(sql`select ${visibleTo("bank", sql.raw<number>("$1::int"), sql.raw<number>("$2"))} as open`);
    expect(text.match(PLACEHOLDERS)).toEqual(["$1", "$2", "$1"]);
    expect(() => fixedText(visibleTo("bank", sql.ref("q.classify_id"), 7))).toThrow(/1 value/);
  });

  it("the rule with its values as parameters answers as its fixed text does", async () => {
    const text = fixedText(sql`select ${visibleTo("bank", sql.raw<number>("$1::int"), sql.raw<number>("$2::int"))} as open`);
    const answers: [number, boolean, boolean][] = [];
    for (const bank of [openBank, assignedBank]) {
      const built = await sql<{ open: boolean }>`select ${visibleTo("bank", sql<number>`${bank}::int`, 0)} as open`.execute(kyselyOf(t.db));
      const fixed = await t.db.query<{ open: boolean }>(text, [bank, 0]);
      answers.push([bank, built.rows[0]!.open, fixed.rows[0]!.open]);
    }
    // Nobody logged in (member 0) sees the bank assigned to nobody, not the company's.
    expect(answers).toEqual([
      [openBank, true, true],
      [assignedBank, false, false],
    ]);
  });
});
