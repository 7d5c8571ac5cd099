import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { msg } from "@lingui/core/macro";
import type { FastifyInstance } from "fastify";
import { rowSchema } from "../../../shared/admin/codegen.ts";
import {
  compareVersions,
  designOfTable,
  manifestProblem,
  MODULE_COMPONENT,
  MODULE_NAME,
  moduleManifest,
  moduleRuleOf,
  moduleTableOf,
  type ModuleManifest,
} from "../../../shared/admin/modules.ts";
import type { ResourceDef } from "../../crud/resource.ts";
import { pgState } from "../../db/errors.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { APP_VERSION } from "../../version.ts";
import { ddlRefusal } from "../codegen/routes.ts";
import { planOf, tableState } from "../codegen/ddl.ts";
import { refuseClaimedRules, resourceOf, writeButtons } from "../codegen/design.ts";
import {
  deleteInstall,
  deleteRuleTree,
  dependantModules,
  dropTableIfExists,
  enabledModuleNames,
  insertInstall,
  insertMenuFolderRule,
  insertModuleRow,
  insertTableMenuRule,
  installedRow,
  installedRows,
  lockInstalls,
  runPlannedStatement,
  setRuleTreeStatus,
  tablesLike,
  weighAsId,
  type InstalledRow,
} from "./repository.ts";
import checkin from "./bundled/checkin/manifest.json" with { type: "json" };
import notice from "./bundled/notice/manifest.json" with { type: "json" };

/**
 * The module market's catalogue and its installs. A module's tables are made with the code
 * generator's machinery (ddl.ts plans the SQL of each table definition, design.ts makes each an
 * engine resource and writes its buttons): a module carries no SQL of its own, so whatever a
 * manifest says, the statements run are the generator's, on tables named `mod_<module>_<table>`.
 */

export interface CatalogueEntry {
  manifest: ModuleManifest;
  source: "bundled" | "catalogue";
}

export { installedRow, installedRows, type InstalledRow } from "./repository.ts";

/** A manifest checked: the schema, then its own consistency; the first problem as a refusal. */
export function parseManifest(value: unknown): ModuleManifest {
  const parsed = moduleManifest.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? issue.path.join(".") : "";
    throw new ApiError(msg`The manifest is not valid (${where})`);
  }
  const problem = manifestProblem(parsed.data);
  if (problem) throw new ApiError(problem);
  return parsed.data;
}

/** The modules shipped with the app (src/server/modules/market/bundled/<name>/manifest.json). */
export const BUNDLED: readonly ModuleManifest[] = [notice, checkin].map((m) => parseManifest(m));

export const modulesDirOf = (app: FastifyInstance): string => app.config.modulesDir ?? path.join(app.config.dataDir, "modules");

const MAX_MANIFEST_BYTES = 1024 * 1024;

/** The manifest of the catalogue folder's module `name`, checked (its first problem thrown). */
async function readFolderManifest(dir: string, name: string): Promise<ModuleManifest> {
  const file = path.join(dir, name, "manifest.json");
  const info = await fs.lstat(file);
  if (!info.isFile() || info.size > MAX_MANIFEST_BYTES) throw new Error("not a manifest file");
  let json: unknown;
  try {
    json = JSON.parse(await fs.readFile(file, "utf8"));
  } catch {
    throw new ApiError(msg`The manifest is not valid JSON`);
  }
  const manifest = parseManifest(json);
  if (manifest.name !== name) throw new Error("the manifest names another module");
  return manifest;
}

/**
 * Why the catalogue folder's module `name` is not in the catalogue, as a refusal: its manifest's
 * first problem when it is one (checked again at install: a folder can be changed by hand after
 * its upload), else "not in the catalogue".
 */
export async function catalogueRefusal(app: FastifyInstance, name: string): Promise<ApiError> {
  if (!MODULE_NAME.test(name)) return new ApiError(msg`The module is not in the catalogue`);
  try {
    await readFolderManifest(modulesDirOf(app), name);
  } catch (error) {
    if (error instanceof ApiError) return error;
  }
  return new ApiError(msg`The module is not in the catalogue`);
}

/** The catalogue folder's modules: each `<dir>/<name>/manifest.json` that validates and names its folder (others are logged and left out). */
export async function readCatalogue(app: FastifyInstance): Promise<CatalogueEntry[]> {
  const dir = modulesDirOf(app);
  const found: CatalogueEntry[] = BUNDLED.map((manifest) => ({ manifest, source: "bundled" }));
  let names: string[];
  try {
    names = (await fs.readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory() && MODULE_NAME.test(d.name)).map((d) => d.name);
  } catch {
    return found;
  }
  for (const name of names.sort()) {
    if (BUNDLED.some((m) => m.name === name)) continue;
    try {
      found.push({ manifest: await readFolderManifest(dir, name), source: "catalogue" });
    } catch (error) {
      app.log.warn({ module: name, reason: error instanceof Error ? error.message : "unknown" }, "a module of the catalogue folder is left out");
    }
  }
  return found;
}

/** An installed module's manifest (checked again: a row edited by hand never reaches the engine unchecked), or null. */
export function storedManifest(row: Pick<InstalledRow, "manifest" | "name">): ModuleManifest | null {
  try {
    const manifest = parseManifest(row.manifest);
    return manifest.name === row.name ? manifest : null;
  } catch {
    return null;
  }
}

/** The values of a module's settings: the stored ones within bounds, else the defaults. */
export function settingsOf(manifest: ModuleManifest, stored: unknown): Record<string, number> {
  const values: Record<string, number> = {};
  const given = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  for (const s of manifest.settings) {
    const v = given[s.key];
    values[s.key] = typeof v === "number" && Number.isInteger(v) && v >= s.min && v <= s.max ? v : s.default;
  }
  return values;
}

/** The engine's resources of a module, by `<module>/<table>`. */
export function resourcesOf(manifest: ModuleManifest): Map<string, ResourceDef> {
  const out = new Map<string, ResourceDef>();
  for (const table of manifest.tables) {
    const def = resourceOf(designOfTable(table), { rule: moduleRuleOf(manifest.name, table.name), table: moduleTableOf(manifest.name, table.name) });
    out.set(`${manifest.name}/${table.name}`, def);
  }
  return out;
}

/** Mounts (enabled) or unmounts a module's resources in the running engine. */
export function mountModule(app: FastifyInstance, manifest: ModuleManifest, on: boolean): void {
  for (const key of [...app.moduleResources.keys()]) if (key.startsWith(`${manifest.name}/`)) app.moduleResources.delete(key);
  if (on) for (const [key, def] of resourcesOf(manifest)) app.moduleResources.set(key, def);
}

/** At start: every enabled module is mounted again. */
export async function loadModules(app: FastifyInstance): Promise<void> {
  for (const row of await installedRows(app.db)) {
    const manifest = storedManifest(row);
    if (!manifest) {
      app.log.warn({ module: row.name }, "an installed module's manifest does not validate: its screens are not mounted");
      continue;
    }
    if (row.status === "enabled") mountModule(app, manifest, true);
  }
}

/** What a module needs, checked in the install's transaction. */
async function checkRequirements(tx: Queryable, manifest: ModuleManifest): Promise<void> {
  const need = manifest.requires.app;
  if (need && compareVersions(APP_VERSION, need) < 0) {
    const have = APP_VERSION;
    throw new ApiError(msg`The module needs ExamHub ${need} or later (this is ${have})`);
  }
  if (manifest.requires.modules.length === 0) return;
  const enabled = await enabledModuleNames(tx, manifest.requires.modules);
  const missing = manifest.requires.modules.filter((m) => !enabled.includes(m)).join(", ");
  if (missing) throw new ApiError(msg`Install and enable these modules first: ${missing}`);
}

/** The module's menu folder and a menu (with its buttons) per table listed in the menu. */
async function writeModuleRules(tx: Queryable, manifest: ModuleManifest): Promise<void> {
  const folder = moduleRuleOf(manifest.name);
  // Every rule is made here: a row already named under `mod/<name>` is refused, never adopted.
  await refuseClaimedRules(tx, folder);
  const folderId = await insertMenuFolderRule(tx, { title: manifest.title, titleEn: manifest.titleEn || manifest.title, name: folder, icon: manifest.icon });
  for (const table of manifest.tables) {
    if (!table.menu) continue;
    const rule = moduleRuleOf(manifest.name, table.name);
    const menuId = await insertTableMenuRule(tx, folderId, { title: table.title, titleEn: table.titleEn || table.title, name: rule, icon: table.icon, component: MODULE_COMPONENT });
    await writeButtons(tx, menuId, rule, table.sortable);
  }
}

const likePrefix = (name: string) => `${moduleRuleOf(name).replace(/_/g, "\\_")}/%`;

export async function setRulesStatus(tx: Queryable, name: string, status: "enable" | "disable"): Promise<void> {
  await setRuleTreeStatus(tx, moduleRuleOf(name), likePrefix(name), status);
}

export async function removeModuleRules(tx: Queryable, name: string): Promise<void> {
  await deleteRuleTree(tx, moduleRuleOf(name), likePrefix(name));
}

/** A demo row added through the table's own row schema (the same checks as the back office's add). */
async function insertDemoRows(tx: Queryable, manifest: ModuleManifest): Promise<void> {
  for (const [tableName, rows] of Object.entries(manifest.demo)) {
    const table = manifest.tables.find((t) => t.name === tableName)!;
    const schema = rowSchema(designOfTable(table));
    for (const raw of rows) {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) throw new ApiError(msg`A demo row of the table "${tableName}" is not valid`);
      const row = parsed.data as Record<string, unknown>;
      const full = moduleTableOf(manifest.name, tableName);
      const id = await insertModuleRow(tx, full, row).catch((error: unknown) => {
        if (pgState(error) === "23505") throw new ApiError(msg`A demo row of the table "${tableName}" has the same value as another in a unique column`);
        throw error;
      });
      if (table.sortable) await weighAsId(tx, full, id);
    }
  }
}

/**
 * Installs a module in one transaction (the caller's): requirements, each table made to fit its
 * definition (a table kept from an earlier install is changed, never emptied: a column it has
 * that the module no longer lists is refused), menu rules, demo rows, the install row. Any
 * failure rolls all of it back.
 */
export async function installModule(tx: Queryable, manifest: ModuleManifest, source: "bundled" | "catalogue", demo: boolean, adminId: number): Promise<void> {
  await lockInstalls(tx);
  const name = manifest.name;
  if (await installedRow(tx, name)) throw new ApiError(msg`The module "${name}" is already installed`);
  await checkRequirements(tx, manifest);
  for (const table of manifest.tables) {
    const full = moduleTableOf(name, table.name);
    const plan = planOf(designOfTable(table), await tableState(tx, full), null, full);
    if (plan.drops.length > 0) {
      const columns = plan.drops.join(", ");
      throw new ApiError(msg`The table ${full} kept from an earlier install has columns this module does not list (${columns}): drop them or the table first`);
    }
    for (const statement of plan.statements) await runPlannedStatement(tx, statement).catch(ddlRefusal);
  }
  await writeModuleRules(tx, manifest);
  if (demo) await insertDemoRows(tx, manifest);
  await insertInstall(tx, { name, version: manifest.version, title: manifest.title, source, manifest, settings: settingsOf(manifest, {}), adminId });
}

/** Uninstalls in the caller's transaction: rules and the install row go; the tables only with `dropData`. */
export async function uninstallModule(tx: Queryable, name: string, dropData: boolean): Promise<ModuleManifest | null> {
  await lockInstalls(tx);
  const row = await installedRow(tx, name, true);
  if (!row) throw new ApiError(msg`The module "${name}" is not installed`);
  const dependants = await dependantModules(tx, name);
  if (dependants.length > 0) {
    const list = dependants.join(", ");
    throw new ApiError(msg`These modules need it: ${list}. Uninstall them first`);
  }
  const manifest = storedManifest(row);
  await removeModuleRules(tx, name);
  if (dropData) {
    // The module's own tables only: `mod_<name>_<table>` of its manifest (or, for a manifest that
    // no longer validates, every table with its prefix).
    const tables = manifest
      ? manifest.tables.map((t) => moduleTableOf(name, t.name))
      : await tablesLike(tx, `${moduleTableOf(name, "").replace(/_/g, "\\_")}%`);
    for (const table of tables) await dropTableIfExists(tx, table);
  }
  await deleteInstall(tx, name);
  return manifest;
}

/** A staging folder name beside the catalogue's modules (never a module's name: it starts with a dot). */
export const stagingName = (): string => `.staging-${randomBytes(8).toString("hex")}`;

/** Translated title of a manifest or a block. */
export const titleIn = (lang: string, item: { title: string; titleEn: string }): string => (lang === "en" && item.titleEn ? item.titleEn : item.title);
