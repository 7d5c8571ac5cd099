import "fake-indexeddb/auto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { OP_TYPES, parseOp, type Op } from "../../src/shared/sync/ops.ts";
import { HANDLED_OP_TYPES } from "../../src/server/sync/handlers/index.ts";
import { deleteMemberDb, openMemberDb } from "../../src/client/offline/db.ts";
import { removeWrong, setFavourite, setProgress, setReviewRetention, toOp } from "../../src/client/offline/repository/index.ts";

/**
 * The sync protocol is written on two sides: the client's repository queues ops
 * (src/client/offline/repository/), the server applies them (src/server/sync/handlers/). Both take
 * an op's payload schema from the one list of src/shared/sync/ops.ts; this test holds the three
 * together: every op the client builds is an op type of that list, every op type has its server
 * handler and no handler is for an op the list lacks; each side reads its schemas from there and
 * declares none of its own.
 */

const CLIENT_OPS_DIR = "src/client/offline";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The op types the client builds: every object literal with a string-literal `type` beside a `payload`. */
function clientOpTypes(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sourceFiles(CLIENT_OPS_DIR)) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isObjectLiteralExpression(node)) {
        const named = (name: string) => node.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === name);
        const type = named("type");
        if (named("payload") && type && ts.isPropertyAssignment(type) && ts.isStringLiteral(type.initializer)) {
          found.set(type.initializer.text, [...(found.get(type.initializer.text) ?? []), file]);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** What is out of step between the client's ops, the shared op list and the server's handlers. */
function contractGaps(sides: { client: Iterable<string>; shared: readonly string[]; server: readonly string[] }): string[] {
  const shared = new Set(sides.shared);
  const server = new Set(sides.server);
  const gaps: string[] = [];
  for (const type of sides.client) {
    if (!shared.has(type)) gaps.push(`client queues ${type}, which src/shared/sync/ops.ts does not list`);
    if (!server.has(type)) gaps.push(`client queues ${type}, which no server handler applies`);
  }
  for (const type of shared) if (!server.has(type)) gaps.push(`${type} has no server handler`);
  for (const type of server) if (!shared.has(type)) gaps.push(`server handles ${type}, which src/shared/sync/ops.ts does not list`);
  return gaps;
}

describe("sync contract: client ops, shared schemas, server handlers", () => {
  const client = clientOpTypes();

  it("finds the ops the client queues", () => {
    // Each domain's ops: practice, mock exams, official exams, lessons, reviews.
    expect([...client.keys()]).toEqual(expect.arrayContaining(["practice.answer", "attempt.submit", "official.answer", "official.leave", "lesson.progress", "review.answer"]));
  });

  it("has every op the client queues in the shared list, and a server handler for every op of it", () => {
    expect(contractGaps({ client: client.keys(), shared: OP_TYPES, server: HANDLED_OP_TYPES })).toEqual([]);
    // Every op type of the protocol is one the client sends: none is dead on one side.
    expect(new Set(client.keys())).toEqual(new Set(OP_TYPES));
  });

  it("fails when an op is missing on one side", () => {
    const dropped = HANDLED_OP_TYPES.filter((type) => type !== "official.leave");
    expect(contractGaps({ client: client.keys(), shared: OP_TYPES, server: dropped })).toEqual([
      "client queues official.leave, which no server handler applies",
      "official.leave has no server handler",
    ]);
    expect(contractGaps({ client: [...client.keys(), "bank.rename"], shared: OP_TYPES, server: HANDLED_OP_TYPES })).toEqual([
      "client queues bank.rename, which src/shared/sync/ops.ts does not list",
      "client queues bank.rename, which no server handler applies",
    ]);
    expect(contractGaps({ client: client.keys(), shared: OP_TYPES, server: [...HANDLED_OP_TYPES, "bank.rename"] })).toEqual([
      "server handles bank.rename, which src/shared/sync/ops.ts does not list",
    ]);
  });

  it("reads every op's schema from src/shared/sync on both sides, declaring none of its own", () => {
    const routes = readFileSync("src/server/sync/routes.ts", "utf8");
    expect(routes).toMatch(/import \{[^}]*\bparseOp\b[^}]*\} from "\.\.\/\.\.\/shared\/sync\/ops\.ts"/);
    expect(readFileSync("src/client/offline/repository/shared.ts", "utf8")).toMatch(/import type \{[^}]*\bOp\b[^}]*\} from "\.\.\/\.\.\/\.\.\/shared\/sync\/ops\.ts"/);
    const zodUsers = [...sourceFiles(CLIENT_OPS_DIR), ...sourceFiles("src/server/sync")].filter((file) => /from "zod(\/mini)?"/.test(readFileSync(file, "utf8")));
    expect(zodUsers).toEqual([]);
  });

  describe("ops the client's repository queues", () => {
    const db = openMemberDb(90_001);
    afterAll(async () => {
      db.close();
      await deleteMemberDb(90_001);
    });

    it("pass the schema the server parses them with", async () => {
      const at = Date.UTC(2024, 0, 1);
      const opts = { now: () => at };
      await setFavourite(db, 3, true, opts);
      await removeWrong(db, 3, opts);
      await setProgress(db, 7, 12, opts);
      await setReviewRetention(db, 0.85, opts);
      const ops: Op[] = (await db.outbox.orderBy("seq").toArray()).map(toOp);
      expect(ops.map((op) => op.type)).toEqual(["favourite.set", "wrong.remove", "progress.set", "review.retention"]);
      for (const op of ops) expect(parseOp(JSON.parse(JSON.stringify(op)), at + 1_000)).toEqual({ ok: true, op });
    });
  });
});
