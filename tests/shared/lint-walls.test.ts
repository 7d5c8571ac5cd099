import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The walls of eslint.config.js, probed: small files linted as if they lived in each zone (at
 * the path of a real file there, so relative imports resolve as they would), each expected to
 * fail for the one forbidden thing it does, and allowed imports expected to pass.
 */
let eslint: ESLint;
beforeAll(async () => {
  eslint = new ESLint({ cwd: process.cwd() });
  // The first type-aware lint builds the TypeScript program of each zone: done here, so no probe
  // times out on it and none still runs when the next one lints the same path with other text.
  for (const filePath of ["src/shared/uuid.ts", "src/server/version.ts", "src/client/features/exam/papers.ts"]) await eslint.lintText("export {};\n", { filePath });
}, 600_000);

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId ?? "parse"}: ${m.message}`);
}

const SHARED = "src/shared/uuid.ts";
const SERVER = "src/server/version.ts";
const CLIENT = "src/client/features/exam/papers.ts";
const CLIENT_JSX = "src/client/app/pages/NotFoundPage.tsx";
// A probe's text stands in for the file's in the type-aware program for the rest of the run: the
// offline probe takes a file that the types the Dexie probes read (offline/index.ts's handle) do not need.
const OFFLINE = "src/client/offline/transport.ts";
const ROUTING = "src/client/routing/menus.ts";
const BASE = "src/client/stores/navTabs.ts";
const AREA = "src/client/admin/screens.ts";
const MEMBER_AREA = "src/client/user/UserRoute.tsx";
const API = "src/client/api/errors.ts";
const UI = "src/client/ui/toast.ts";
const I18N = "src/client/i18n/index.ts";
const PWA = "src/client/pwa/push.ts";
const BROWSER = "src/client/browser/nextTask.ts";

const forbidden: [zone: string, file: string, code: string][] = [
  ["shared", SHARED, 'import fs from "node:fs";\nexport const x = fs;'],
  ["shared", SHARED, 'import pg from "pg";\nexport const x = pg;'],
  ["shared", SHARED, 'import axios from "axios";\nexport const x = axios;'],
  ["shared", SHARED, 'import { create } from "zustand";\nexport const x = create;'],
  ["shared", SHARED, 'import React from "react";\nexport const x = React;'],
  ["shared", SHARED, 'import { openMemberDb } from "../client/offline/db.ts";\nexport const x = openMemberDb;'],
  ["shared", SHARED, 'import { loadConfig } from "../server/config.ts";\nexport const x = loadConfig;'],
  ["client", CLIENT, 'import fs from "node:fs";\nexport const x = fs;'],
  ["client", CLIENT, 'import nodemailer from "nodemailer";\nexport const x = nodemailer;'],
  ["client", CLIENT, 'import sanitize from "sanitize-html";\nexport const x = sanitize;'],
  ["client", CLIENT, 'import { loadConfig } from "../../../server/config.ts";\nexport const x = loadConfig;'],
  ["client", CLIENT, 'import Dexie from "dexie";\nexport const x = Dexie;'],
  ["client", CLIENT, 'import { useLiveQuery } from "dexie-react-hooks";\nexport const x = useLiveQuery;'],
  // Inside the client: no folder imports one that imports it back.
  ["a feature", CLIENT, 'import { x as y } from "../course/CataloguePage.tsx";\nexport const x = y;'],
  ["a feature", CLIENT, 'import { router } from "../../app/router.tsx";\nexport const x = router;'],
  ["routing", ROUTING, 'import { router } from "../app/router.tsx";\nexport const x = router;'],
  ["routing", ROUTING, 'import { x as y } from "../features/exam/papers.ts";\nexport const x = y;'],
  ["the base", BASE, 'import { menuRoutes } from "../routing/menus.ts";\nexport const x = menuRoutes;'],
  ["the back office", AREA, 'import { router } from "../app/router.tsx";\nexport const x = router;'],
  // The back office's messages are a catalog only the admin area loads: nothing else imports it.
  ["the member center", MEMBER_AREA, 'import { adminScreens } from "../admin/screens.ts";\nexport const x = adminScreens;'],
  ["a feature", CLIENT, 'import { adminScreens } from "../../admin/screens.ts";\nexport const x = adminScreens;'],
  ["the base", BASE, 'import { adminScreens } from "../admin/screens.ts";\nexport const x = adminScreens;'],
  // The client's base in layers, each importing only those below it: pwa, api, ui, i18n, stores,
  // browser. A component of the design system that fetched (ui → api) would close a cycle with the
  // request layer's toasts (api → ui).
  ["the design system", UI, 'import { request } from "../api/index.ts";\nexport const x = request;'],
  ["the design system", UI, 'import { pushSupported } from "../pwa/push.ts";\nexport const x = pushSupported;'],
  ["the design system", UI, 'import { syncNow } from "../offline/index.ts";\nexport const x = syncNow;'],
  ["the request layer", API, 'import { pushSupported } from "../pwa/push.ts";\nexport const x = pushSupported;'],
  ["the request layer", API, 'import { syncNow } from "../offline/index.ts";\nexport const x = syncNow;'],
  ["i18n", I18N, 'import { toast } from "../ui/toast.ts";\nexport const x = toast;'],
  ["i18n", I18N, 'import { request } from "../api/index.ts";\nexport const x = request;'],
  ["the stores", BASE, 'import { toast } from "../ui/toast.ts";\nexport const x = toast;'],
  ["the stores", BASE, 'import { activateLanguage } from "../i18n/index.ts";\nexport const x = activateLanguage;'],
  ["the stores", BASE, 'import { request } from "../api/index.ts";\nexport const x = request;'],
  ["the browser helpers", BROWSER, 'import { useConfig } from "../stores/config.ts";\nexport const x = useConfig;'],
  ["pwa", PWA, 'import { syncNow } from "../offline/index.ts";\nexport const x = syncNow;'],
  ["server", SERVER, 'import React from "react";\nexport const x = React;'],
  ["server", SERVER, 'import axios from "axios";\nexport const x = axios;'],
  ["server", SERVER, 'import { openMemberDb } from "../client/offline/db.ts";\nexport const x = openMemberDb;'],
  ["server", SERVER, 'import Dexie from "dexie";\nexport const x = Dexie;'],
];

describe("lint walls", () => {
  it.each(forbidden)("%s code may not do: %s", async (_zone, file, code) => {
    const found = await problems(file, code);
    expect(found.filter((p) => p.startsWith("boundaries/dependencies"))).toHaveLength(1);
  });

  it("lets each zone import what it is allowed to", async () => {
    expect(await problems(SHARED, 'import { z } from "zod";\nexport const x = z;')).toEqual([]);
    expect(await problems(SERVER, 'import fs from "node:fs";\nimport { uuid } from "../shared/uuid.ts";\nexport const x = [fs, uuid];')).toEqual([]);
    expect(await problems(CLIENT, 'import axios from "axios";\nimport { uuid } from "../../../shared/uuid.ts";\nexport const x = [axios, uuid];')).toEqual([]);
    expect(await problems(OFFLINE, 'import Dexie from "dexie";\nexport const x = Dexie;')).toEqual([]);
    expect(await problems(CLIENT, 'import { x as y } from "./official.ts";\nimport { menuRoutes } from "../../routing/menus.ts";\nexport const x = [y, menuRoutes];')).toEqual([]);
    expect(await problems(AREA, 'import { menuRoutes } from "../routing/menus.ts";\nimport { x as y } from "../features/exam/papers.ts";\nexport const x = [y, menuRoutes];')).toEqual([]);
    // Each layer of the base imports those below it.
    expect(await problems(PWA, 'import { request } from "../api/index.ts";\nimport { toast } from "../ui/toast.ts";\nexport const x = [request, toast];')).toEqual([]);
    expect(await problems(API, 'import { toast } from "../ui/toast.ts";\nimport { withCommonCatalog } from "../i18n/index.ts";\nimport { useConfig } from "../stores/config.ts";\nimport { nextTask } from "../browser/nextTask.ts";\nexport const x = [toast, withCommonCatalog, useConfig, nextTask];')).toEqual([]);
    expect(await problems(UI, 'import { changeLanguage } from "../i18n/index.ts";\nimport { useRequestLoading } from "../stores/requestLoading.ts";\nexport const x = [changeLanguage, useRequestLoading];')).toEqual([]);
  });

  it("keeps Dexie behind src/client/offline: screens hold the member's database but read none of it", async () => {
    const reads = (found: string[]) => found.filter((p) => p.startsWith("offline/no-database-reads"));
    // Found by type: any variable, any table (officialAttempts too), a destructured table.
    const read = 'import { getOfflineDb } from "../../offline/index.ts";\nexport async function probe() {\n  const store = getOfflineDb()!;\n  return store.officialAttempts.get("x");\n}\n';
    expect(reads(await problems(CLIENT, read))).toHaveLength(1);
    const optional = 'import { useOfflineDb } from "../../offline/index.ts";\nexport function useProbe() {\n  const handle = useOfflineDb();\n  return handle?.reviewCards;\n}\n';
    expect(reads(await problems(CLIENT, optional))).toHaveLength(1);
    const destructured = 'import type { MemberDb } from "../../offline/index.ts";\nexport function probe(source: MemberDb) {\n  const { attempts } = source;\n  return attempts;\n}\n';
    expect(reads(await problems(CLIENT, destructured))).toHaveLength(1);
    const viaQuery = 'import { useOfflineQuery } from "../../offline/index.ts";\nexport function useProbe() {\n  return useOfflineQuery((x) => x.faceChecks.count(), [], 0);\n}\n';
    expect(reads(await problems(CLIENT, viaQuery))).toHaveLength(1);
    const viaRepository = 'import { getOfflineDb, storedAttempt } from "../../offline/index.ts";\nexport async function probe() {\n  return storedAttempt(getOfflineDb()!, "x");\n}\n';
    expect(await problems(CLIENT, viaRepository)).toEqual([]);
    expect(await problems("src/client/offline/repository/banks.ts", 'import type { MemberDb } from "../db.ts";\nexport async function probe(db: MemberDb) {\n  return db.officialAttempts.get("x");\n}\n')).toEqual([]);
  });

  it("lets the rest of the client reach offline/ only through its entry", async () => {
    const deep = (found: string[]) => found.filter((p) => p.startsWith("no-restricted-imports"));
    for (const path of ["db.ts", "sync.ts", "hooks.ts", "repository/index.ts", "repository/official.ts"]) {
      const code = `import * as inside from "../../offline/${path}";\nexport const x = inside;`;
      expect(deep(await problems(CLIENT, code)), path).toHaveLength(1);
    }
    expect(await problems(CLIENT, 'import { useBank, storedBank } from "../../offline/index.ts";\nexport const x = [useBank, storedBank];')).toEqual([]);
    // The Dexie-free part the header reads before the offline module loads.
    expect(await problems(CLIENT, 'import { useSyncStatus } from "../../offline/status.ts";\nexport const x = useSyncStatus;')).toEqual([]);
    // Inside offline/, files import each other.
    expect(await problems(OFFLINE, 'import { openMemberDb } from "./db.ts";\nexport const x = openMemberDb;')).toEqual([]);
  });

  it("refuses untranslated text in the client's JSX", async () => {
    const found = await problems(CLIENT_JSX, "export function Probe() {\n  return <p>Page not found</p>;\n}\n");
    expect(found.filter((p) => p.startsWith("lingui/no-unlocalized-strings"))).toHaveLength(1);
    const translated = 'import { Trans } from "@lingui/react/macro";\nexport function Probe() {\n  return <p className="text-sm"><Trans>Page not found</Trans></p>;\n}\n';
    expect(await problems(CLIENT_JSX, translated)).toEqual([]);
  });

  it("keeps SQL on the typed data layer: only the db/ seam calls .query(, repositories use Kysely or a prepared statement", async () => {
    const text = 'import type { Queryable } from "../../db/index.ts";\nexport async function probe(db: Queryable) {\n  return db.query("select 1");\n}\n';
    const refused = [expect.stringMatching(/^no-restricted-syntax: SQL goes through the typed Kysely instance/)];
    expect(await problems("src/server/modules/account/routes.ts", text)).toEqual(refused);
    // Not in a repository file either, nor in a folder's repository files (crud/resources/).
    expect(await problems("src/server/modules/account/repository.ts", text)).toEqual(refused);
    expect(await problems("src/server/crud/resources/rooms.repository.ts", text)).toEqual(refused);
    // Nor with a prepared statement handed to it: that goes through runPrepared.
    const preparedText = 'import { prepared, type Queryable } from "../../db/index.ts";\nconst ONE = prepared("probe.one", "select 1 as one");\nexport async function probe(db: Queryable) {\n  return db.query(ONE);\n}\n';
    expect(await problems("src/server/modules/account/repository.ts", preparedText)).toEqual(refused);
    // What a repository does instead: typed Kysely (its sql template too), or runPrepared.
    const typed =
      'import { sql } from "kysely";\nimport { prepared, runPrepared, type Queryable } from "../../db/index.ts";\nimport { kyselyOf } from "../../db/kysely.ts";\n' +
      'const ONE = prepared<{ one: number }, [id: number]>("probe.one", "select 1 as one where $1 > 0");\n' +
      'export async function probe(db: Queryable, id: number) {\n  const k = kyselyOf(db);\n' +
      '  const row = await k.selectFrom("member").select("id").where("id", "=", id).executeTakeFirst();\n' +
      '  const raw = await sql<{ n: number }>`select ${id}::int as n`.execute(k);\n' +
      '  return [row, raw.rows, (await runPrepared(db, ONE, [id])).rows];\n}\n';
    expect(await problems("src/server/modules/account/repository.ts", typed)).toEqual([]);
    // The seam itself runs the text.
    expect(await problems("src/server/db/errors.ts", text.replaceAll("../../db/", "./"))).toEqual([]);
  });

  it("has screens draw buttons, tables and the filled primary look with ui/", async () => {
    const ui = (found: string[]) => found.filter((p) => p.startsWith("design-system/use-ui"));
    const raw = 'export function Probe() {\n  return <button type="button">x</button>;\n}\n';
    expect(ui(await problems(CLIENT_JSX, raw))).toEqual([expect.stringMatching(/raw <button>/)]);
    const table = "export function Probe() {\n  return <table><tbody /></table>;\n}\n";
    expect(ui(await problems(CLIENT_JSX, table))).toEqual([expect.stringMatching(/raw <table>/)]);
    // A list is a DataTable: the pieces it is drawn with stay in ui/ (PlainTable frames a grid of form controls).
    const pieces = 'import { Table, TBody, Td, Tr } from "../../ui/Table.tsx";\nexport function Probe() {\n  return <Table caption="x"><TBody><Tr><Td>x</Td></Tr></TBody></Table>;\n}\n';
    expect(ui(await problems(CLIENT_JSX, pieces))).toEqual([
      expect.stringMatching(/DataTable: Table is one/),
      expect.stringMatching(/DataTable: TBody is one/),
      expect.stringMatching(/DataTable: Td is one/),
      expect.stringMatching(/DataTable: Tr is one/),
    ]);
    const list = 'import { DataTable } from "../../ui/DataTable.tsx";\nimport { PlainTable } from "../../ui/Table.tsx";\nexport const Grid = PlainTable;\nexport function Probe({ rows }: { rows: { id: number }[] }) {\n  return <DataTable caption="x" data={rows} rowKey={(r) => r.id} columns={[{ id: "id", header: "x", cell: (r) => r.id }]} />;\n}\n';
    expect(await problems(CLIENT_JSX, list)).toEqual([]);
    expect(ui(await problems("src/client/ui/Tabs.tsx", pieces.replace("../../ui/Table.tsx", "../ui/Table.tsx")))).toEqual([]);
    const filled = 'export function Probe({ on }: { on: boolean }) {\n  return <span className={on ? "rounded bg-primary px-2 text-white" : "px-2"}>x</span>;\n}\n';
    expect(ui(await problems(CLIENT_JSX, filled))).toHaveLength(1);
    const button = 'import { Button, selectedClass } from "../../ui/Button.tsx";\nexport function Probe({ on }: { on: boolean }) {\n  return <Button className={on ? selectedClass : ""}>x</Button>;\n}\n';
    expect(await problems(CLIENT_JSX, button)).toEqual([]);
    // ui/ itself is where they are drawn.
    expect(ui(await problems("src/client/ui/Tabs.tsx", raw))).toEqual([]);
  });

  it("refuses a promise nobody awaits or handles", async () => {
    const code = "async function save(): Promise<void> {}\nexport function probe(): void {\n  save();\n}\n";
    expect(await problems(CLIENT, code)).toEqual([expect.stringMatching(/^@typescript-eslint\/no-floating-promises/)]);
    expect(await problems(CLIENT, code.replace("  save();", "  void save();"))).toEqual([]);
  });
});
