import { promises as fs } from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  checkInBody,
  designOfTable,
  installBody,
  MODULE_ZIP,
  moduleNameBody,
  moduleSettingsBody,
  moduleTableOf,
  moduleUploadBody,
  uninstallBody,
  type HomeBlock,
  type MemberBlock,
  type ModuleManifest,
  type ModuleRow,
} from "../../../shared/admin/modules.ts";
import { jsonBody } from "../../../shared/schema.ts";
import { logTitle, writeAdminLog } from "../../crud/log.ts";
import { mountResourceWith } from "../../crud/routes.ts";
import { ApiError } from "../../errors.ts";
import { memos } from "../account/memos.ts";
import { awardPoints } from "../account/repository.ts";
import { SUPER_ADMIN_RULE } from "../admin/access.ts";
import {
  BUNDLED,
  catalogueRefusal,
  installedRow,
  installedRows,
  installModule,
  loadModules,
  modulesDirOf,
  mountModule,
  parseManifest,
  readCatalogue,
  setRulesStatus,
  settingsOf,
  stagingName,
  storedManifest,
  titleIn,
  uninstallModule,
  type InstalledRow,
} from "./modules.ts";
import { checkInCount, insertCheckIn, listBlockRows, saveInstallSettings, setInstallStatus } from "./repository.ts";
import { readModuleZip } from "./zip.ts";

/**
 * The module market (`/admin/moduleStore/moduleStore/...`, super admins only, every write in
 * the admin log), the modules' screens (`/admin/mod/<module>/<table>/...`, the engine's
 * protocol, each action needing its rule `mod/<module>/<table>/<action>`, refused while the
 * module is disabled) and what members see of the enabled modules (`/api/module/...`).
 */

const LOG = { title: logTitle(msg`Module market`) };
const superOnly = { adminRule: SUPER_ADMIN_RULE };
const BASE = "/admin/moduleStore/moduleStore";

const notEnabled = () => new ApiError(msg`This module is not installed or is disabled`);

export async function marketRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  // Once the database is usable (app.ts): start-up registers the routes while it opens.
  app.whenOpen(() => loadModules(app));

  // The modules' screens: the engine's protocol, the definition found per request (enabled modules only).
  mountResourceWith(app, {
    base: "mod/:module/:table",
    rule: (action) => `mod/:module/:table/${action}`,
    companyAdmins: false,
    dynamic: true,
    resolve: (req: FastifyRequest) => {
      const { module = "", table = "" } = req.params as { module?: string; table?: string };
      const def = app.moduleResources.get(`${module}/${table}`);
      if (!def) throw notEnabled();
      return def;
    },
  });

  /** An enabled module's manifest, or a refusal. */
  async function enabledManifest(name: string): Promise<{ manifest: ModuleManifest; row: InstalledRow }> {
    const row = await installedRow(db, name);
    const manifest = row && row.status === "enabled" ? storedManifest(row) : null;
    if (!row || !manifest) throw notEnabled();
    return { manifest, row };
  }

  /** The table definition a module screen renders. */
  api.get(
    "/admin/mod/:module/:table/definition",
    { config: { adminRule: "mod/:module/:table/index" }, schema: { params: z.object({ module: z.string().max(20), table: z.string().max(30) }) } },
    async (req, reply) => {
      const { manifest } = await enabledManifest(req.params.module);
      const table = manifest.tables.find((t) => t.name === req.params.table);
      if (!table || !app.moduleResources.has(`${manifest.name}/${table.name}`)) throw notEnabled();
      return reply.success({ module: manifest.name, design: designOfTable(table, req.lang) });
    },
  );

  api.get(`${BASE}/index`, { config: superOnly }, async (_req, reply) => {
    const catalogue = await readCatalogue(app);
    const installed = await installedRows(db);
    const list: ModuleRow[] = [];
    const rowOf = (manifest: ModuleManifest, source: ModuleRow["source"], install: InstalledRow | undefined): ModuleRow => ({
      name: manifest.name,
      title: manifest.title,
      titleEn: manifest.titleEn,
      version: manifest.version,
      author: manifest.author,
      description: manifest.description,
      descriptionEn: manifest.descriptionEn,
      icon: manifest.icon,
      source,
      status: install ? install.status : "available",
      installedVersion: install ? install.version : null,
      requires: manifest.requires,
      tables: manifest.tables.map((t) => ({ name: t.name, table: moduleTableOf(manifest.name, t.name), title: t.title, titleEn: t.titleEn })),
      settings: manifest.settings,
      values: settingsOf(manifest, install?.settings),
      hasDemo: Object.values(manifest.demo).some((rows) => rows.length > 0),
    });
    for (const entry of catalogue) list.push(rowOf(entry.manifest, entry.source, installed.find((r) => r.name === entry.manifest.name)));
    // Installed modules whose package is gone from the catalogue stay listed (from their install).
    for (const row of installed) {
      if (list.some((m) => m.name === row.name)) continue;
      const manifest = storedManifest(row);
      if (manifest) list.push({ ...rowOf(manifest, "installed", row) });
    }
    return reply.success({ list, total: list.length, remark: "", dir: modulesDirOf(app) });
  });

  api.post(`${BASE}/install`, { config: superOnly, schema: { body: jsonBody(installBody) } }, async (req, reply) => {
    const entry = (await readCatalogue(app)).find((e) => e.manifest.name === req.body.name);
    if (!entry) throw await catalogueRefusal(app, req.body.name);
    const { manifest } = entry;
    await db.transaction(async (tx) => {
      await installModule(tx, manifest, entry.source, req.body.demo === true, req.admin!.id);
      await writeAdminLog(tx, req, LOG, "install");
    });
    mountModule(app, manifest, true);
    return reply.success({ name: manifest.name }, msg`Installed`);
  });

  for (const action of ["enable", "disable"] as const) {
    api.post(`${BASE}/${action}`, { config: superOnly, schema: { body: jsonBody(moduleNameBody) } }, async (req, reply) => {
      const name = req.body.name;
      const manifest = await db.transaction(async (tx) => {
        const row = await installedRow(tx, name, true);
        if (!row) throw new ApiError(msg`The module "${name}" is not installed`);
        const stored = storedManifest(row);
        if (!stored) throw new ApiError(msg`The installed module's manifest does not validate: uninstall it`);
        await setInstallStatus(tx, name, action === "enable" ? "enabled" : "disabled");
        await setRulesStatus(tx, name, action);
        await writeAdminLog(tx, req, LOG, action);
        return stored;
      });
      mountModule(app, manifest, action === "enable");
      return reply.success(null, action === "enable" ? msg`Enabled` : msg`Disabled: its menus are hidden and its screens refused`);
    });
  }

  api.post(`${BASE}/uninstall`, { config: superOnly, schema: { body: jsonBody(uninstallBody) } }, async (req, reply) => {
    const name = req.body.name;
    const dropData = req.body.dropData === true;
    await db.transaction(async (tx) => {
      await uninstallModule(tx, name, dropData);
      await writeAdminLog(tx, req, LOG, "uninstall");
    });
    for (const key of [...app.moduleResources.keys()]) if (key.startsWith(`${name}/`)) app.moduleResources.delete(key);
    return reply.success(null, dropData ? msg`Uninstalled, its tables dropped` : msg`Uninstalled; its tables and data are kept`);
  });

  api.post(`${BASE}/settings`, { config: superOnly, schema: { body: jsonBody(moduleSettingsBody) } }, async (req, reply) => {
    const { name, values } = req.body;
    const saved = await db.transaction(async (tx) => {
      const row = await installedRow(tx, name, true);
      const manifest = row ? storedManifest(row) : null;
      if (!row || !manifest) throw new ApiError(msg`The module "${name}" is not installed`);
      const next = settingsOf(manifest, row.settings);
      for (const [key, value] of Object.entries(values)) {
        const setting = manifest.settings.find((s) => s.key === key);
        if (!setting) throw new ApiError(msg`The module has no setting "${key}"`);
        const { min, max } = setting;
        if (value < min || value > max) throw new ApiError(msg`The setting "${key}" must be between ${min} and ${max}`);
        next[key] = value;
      }
      await saveInstallSettings(tx, name, next);
      await writeAdminLog(tx, req, LOG, "settings");
      return next;
    });
    return reply.success({ values: saved }, msg`Saved`);
  });

  /**
   * A module zip into the catalogue folder: read and checked whole in memory first (zip.ts, the
   * manifest, a name clash), then written to a staging folder and renamed into place; any
   * refusal writes nothing. The admin log row is written before the folder is moved, in a
   * transaction that is rolled back if the move fails.
   */
  api.post(`${BASE}/upload`, { config: superOnly, bodyLimit: Math.ceil((MODULE_ZIP.maxBytes * 4) / 3) + 64 * 1024, schema: { body: jsonBody(moduleUploadBody) } }, async (req, reply) => {
    const data = Buffer.from(req.body.data, "base64");
    const { files } = await readModuleZip(data);
    const raw = files.get("manifest.json");
    if (!raw) throw new ApiError(msg`The zip has no manifest.json`);
    let json: unknown;
    try {
      json = JSON.parse(raw.toString("utf8"));
    } catch {
      throw new ApiError(msg`The manifest is not valid JSON`);
    }
    const manifest = parseManifest(json);
    const name = manifest.name;
    const dir = modulesDirOf(app);
    const target = path.join(dir, name);
    const clash = BUNDLED.some((m) => m.name === name) || (await installedRow(db, name)) !== null || (await exists(target));
    if (clash) throw new ApiError(msg`A module named "${name}" already exists`);
    await fs.mkdir(dir, { recursive: true });
    const staging = path.join(dir, stagingName());
    try {
      for (const [file, bytes] of files) {
        const full = path.join(staging, file);
        // entryPath() allowed plain relative names only; checked once more against the folder.
        if (!full.startsWith(staging + path.sep)) throw new ApiError(msg`The zip holds a path with ".."`);
        await fs.mkdir(path.dirname(full), { recursive: true });
        await fs.writeFile(full, bytes, { flag: "wx" });
      }
      // The log keeps what was uploaded, not the zip's bytes.
      const file = req.body.name;
      (req as { body: unknown }).body = { file, module: name, bytes: data.length };
      await db.transaction(async (tx) => {
        await writeAdminLog(tx, req, LOG, "upload");
        if (await exists(target)) throw new ApiError(msg`A module named "${name}" already exists`);
        await fs.rename(staging, target);
      });
    } finally {
      await fs.rm(staging, { recursive: true, force: true });
    }
    return reply.success({ name }, msg`Uploaded: the module is in the catalogue`);
  });

  // ---- Members: what the enabled modules show them. ----

  /** One member block of an enabled module (`/api/module/home`). */
  async function homeBlock(manifest: ModuleManifest, row: InstalledRow, block: MemberBlock, lang: string, memberId: number): Promise<HomeBlock> {
    const table = moduleTableOf(manifest.name, block.table);
    const title = titleIn(lang, block);
    if (block.kind === "list") {
      const f = block.fields;
      const rows = await listBlockRows(db, {
        table,
        where: block.where.map((w) => ({ field: w.field, eq: w.eq })),
        title: f.title,
        ...(f.body ? { body: f.body } : {}),
        ...(f.time ? { time: f.time } : {}),
        order: { field: block.order.field, desc: block.order.desc === true },
        limit: block.limit,
      });
      return {
        kind: "list",
        module: manifest.name,
        name: block.name,
        title,
        items: rows.map((r) => ({ id: r.id, title: String(r.title ?? ""), body: String(r.body ?? ""), time: r.time === null ? null : Number(r.time) })),
      };
    }
    const count = await checkInCount(db, table, userDay(memberId));
    const points = settingsOf(manifest, row.settings)[block.setting] ?? 0;
    return { kind: "dailyPoints", module: manifest.name, name: block.name, title, points, checkedIn: count > 0 };
  }

  api.get("/api/module/home", { config: { auth: "member" } }, async (req, reply) => {
    const member = req.member!;
    const blocks: HomeBlock[] = [];
    for (const row of await installedRows(db)) {
      if (row.status !== "enabled") continue;
      const manifest = storedManifest(row);
      if (!manifest) continue;
      for (const block of manifest.member) {
        // Each block on its own: one that fails (a table dropped by hand, a value the database
        // refuses) is logged and left out, and the other blocks are still shown.
        try {
          blocks.push(await homeBlock(manifest, row, block, req.lang, member.id));
        } catch (error) {
          req.log.warn({ module: manifest.name, block: block.name, err: error instanceof Error ? error.message : "unknown" }, "a module's member block failed: it is left out");
        }
      }
    }
    return reply.success({ blocks });
  });

  /**
   * A daily check-in: once a day per member, however often it is sent (retried, or twice at
   * once): the row `user_day` is unique, so one insert wins and the others (waiting on it) do
   * nothing; the winner awards the points with a points log row in the same transaction.
   */
  api.post("/api/module/checkIn", { config: { auth: "member" }, schema: { body: jsonBody(checkInBody) } }, async (req, reply) => {
    const member = req.member!;
    const { manifest, row } = await enabledManifest(req.body.module);
    const block = manifest.member.find((b) => b.name === req.body.block);
    if (!block || block.kind !== "dailyPoints") throw new ApiError(msg`This module has no check-in`);
    const points = settingsOf(manifest, row.settings)[block.setting] ?? 0;
    const table = moduleTableOf(manifest.name, block.table);
    const day = new Date().toISOString().slice(0, 10);
    const result = await db.transaction(async (tx) => {
      const added = await insertCheckIn(tx, table, { userId: member.id, day, points, userDay: userDay(member.id, day) });
      if (!added) return null;
      const after = await awardPoints(tx, member.id, points, memos.checkin());
      return { awarded: points, score: after };
    });
    if (!result) return reply.success({ awarded: 0, checkedIn: true }, msg`You have already checked in today`);
    return reply.success({ ...result, checkedIn: true }, msg`Checked in: ${points} points`);
  });
}

/** The unique key of a member's check-in on a (UTC) day. */
const userDay = (userId: number, day = new Date().toISOString().slice(0, 10)) => `${userId}:${day}`;

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}
