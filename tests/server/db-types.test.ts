import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { kyselyOf } from "../../src/server/db/kysely.ts";
import { migrate } from "../../src/server/db/migrate.ts";
import { openMemoryPGlite } from "../../src/server/db/pglite.ts";
import { generateSchemaTypes, outFile, schemaTypesDrift } from "../../src/tools/db-types.mjs";

/**
 * The committed database types are those the migrations give: regenerated here from a freshly
 * migrated PGlite, compared with src/server/db/schema.generated.ts. A migration without
 * `npm run db:types` fails here.
 */
let generated: string;
const committed = fs.readFileSync(outFile, "utf8");

beforeAll(async () => {
  generated = await generateSchemaTypes({ openMemoryPGlite, migrate, kyselyOf });
}, 120_000);

describe("the generated database types", () => {
  it("match the migrations", () => {
    expect(schemaTypesDrift(committed, generated)).toBeNull();
  });

  it("name every table the migrations create, with the parsers' types", () => {
    expect(generated).toMatch(/^export interface DB \{$/m);
    expect(generated).toContain("  admin: Admin;");
    // int8 columns arrive as numbers (src/server/db/database.ts parses them): no string-typed Int8.
    expect(generated).not.toMatch(/\bInt8\b/);
  });

  it("fail on a copy edited by hand or left behind by a migration", () => {
    const column = "  password_hash: string;\n";
    expect(generated).toContain(column);
    const edited = generated.replace(column, "");
    expect(schemaTypesDrift(edited, generated)).toMatch(/differs from the migrations at line \d+: committed ".*", migrations give " {2}password_hash: string;"/);
    const added = generated.replace("export interface DB {\n", "export interface DB {\n  gone_table: Admin;\n");
    expect(schemaTypesDrift(added, generated)).toMatch(/committed " {2}gone_table: Admin;"/);
  });
});
