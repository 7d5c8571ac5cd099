import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { DB_INT_MAX, DB_INT_MIN, safeText, withMessage } from "../schema.ts";
import { designProblem, genDesign, genField, MAX_FIELDS, SQL_KEYWORDS, type GenDesign, type GenFieldType, type GEN_RESERVED_COLUMNS } from "./codegen.ts";

/**
 * The module market (`/admin/moduleStore/moduleStore`): a module is a package, a folder (or a
 * zip of it) holding `manifest.json`: its name, title, version, author, description, what it
 * needs, its tables as definitions (the code generator's designs: the server writes their SQL,
 * a module carries none), its menus, its settings, what members see of it, and demo rows.
 * Its tables are `mod_<module>_<table>`, its menu rules `mod/<module>` and
 * `mod/<module>/<table>` (component `mod/screen`), mounted by the CRUD engine at
 * `/admin/mod/<module>/<table>/...`.
 */

export const MODULE_TABLE_PREFIX = "mod_";
export const MODULE_RULE_BASE = "mod";
/** The menu rule component of every module screen (the screen reads its definition from the server). */
export const MODULE_COMPONENT = "mod/screen";
/** A module's name: no underscore, so `mod_<module>_<table>` names one module's table only. */
export const MODULE_NAME = /^[a-z][a-z0-9]{1,19}$/;
/** A module table's name (within the module). */
export const MODULE_TABLE_NAME = /^[a-z][a-z0-9_]{0,29}$/;
const KEY = /^[a-z][a-z0-9_]{0,29}$/;
const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}$/;

export const moduleTableOf = (module: string, table: string): string => `${MODULE_TABLE_PREFIX}${module}_${table}`;
export const moduleRuleOf = (module: string, table?: string): string => (table ? `${MODULE_RULE_BASE}/${module}/${table}` : `${MODULE_RULE_BASE}/${module}`);

/** Module packages: limits of an uploaded zip. */
export const MODULE_ZIP = {
  /** The zip itself. */
  maxBytes: 2 * 1024 * 1024,
  maxEntries: 32,
  /** One entry, really inflated. */
  maxEntryBytes: 1024 * 1024,
  /** Every entry together, really inflated. */
  maxTotalBytes: 4 * 1024 * 1024,
  /** Inflated / compressed, per entry. */
  maxRatio: 100,
} as const;

const moduleName = withMessage(
  z.string().max(20).regex(MODULE_NAME),
  msg`A module's name starts with a lowercase letter and has only lowercase letters and digits (2 to 20)`,
);
const tableName = withMessage(z.string().max(30).regex(MODULE_TABLE_NAME), msg`A module table's name has only lowercase letters, digits and underscores (at most 30)`);
const key = withMessage(z.string().max(30).regex(KEY), msg`A key has only lowercase letters, digits and underscores (at most 30)`);
const title = withMessage(safeText(50).trim().min(1), msg`Please enter the title (at most 50 characters)`);
const titleEn = withMessage(safeText(50).trim().default(""), msg`The English title is too long (at most 50 characters)`);
const version = withMessage(z.string().max(14).regex(VERSION), msg`A version is three numbers such as 1.0.0`);

/** A field of a module table: the generator's, with an English label (the comment is the default language's). */
export const moduleField = genField.extend({
  commentEn: withMessage(safeText(100).default(""), msg`The comment is too long (at most 100 characters)`),
  /** English labels of an `enum` field's choices (`optionLabels` are the default language's). */
  optionLabelsEn: withMessage(z.record(z.string().max(64), safeText(64)).default({}), msg`At most 50 choices of at most 64 characters`),
});

export const moduleTable = genDesign.extend({
  name: tableName,
  fields: withMessage(z.array(moduleField).min(1).max(MAX_FIELDS), msg`A design has 1 to 60 fields`),
  /** Listed in the side menu (a back-office screen), under the module's folder. */
  menu: z.boolean().default(true),
  /** A lucide icon name of the side menu (admin/menuIcons.tsx); unknown ones show the table icon. */
  icon: z.string().max(40).regex(/^[a-z][a-z0-9-]{0,39}$/).default("table"),
  /** The recycle bin and sensitive-data rules are the code generator's, not a module's. */
  recycle: z.literal(false).default(false),
  sensitive: z.array(z.string()).max(0).default([]),
});
export type ModuleTable = z.infer<typeof moduleTable>;

export const moduleSetting = z.object({
  key,
  type: z.literal("int"),
  title,
  titleEn,
  default: z.number().int(),
  min: z.number().int().min(-1_000_000).max(1_000_000),
  max: z.number().int().min(-1_000_000).max(1_000_000),
});
export type ModuleSetting = z.infer<typeof moduleSetting>;

const condition = z.object({ field: key, eq: z.union([safeText(64), z.number().int(), z.boolean()]) });

/**
 * What members see of a module (`GET /api/module/home`, the member center's overview):
 * `list`: the rows of a table matching `where`, only the columns named in `fields` (never the
 * others); `dailyPoints`: a "check in" button, once a day, awarding the points of a setting.
 */
export const memberBlock = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("list"),
    name: key,
    title,
    titleEn,
    table: tableName,
    fields: z.object({ title: key, body: key.optional(), time: key.optional() }),
    /** Rows shown: every condition holds (e.g. `status` is `published`). */
    where: z.array(condition).max(5).default([]),
    order: z.object({ field: key, desc: z.boolean().default(true) }).default({ field: "id", desc: true }),
    limit: z.number().int().min(1).max(20).default(5),
  }),
  z.object({
    kind: z.literal("dailyPoints"),
    name: key,
    title,
    titleEn,
    /** Its table has `user_id` (int), `day` (string, `YYYY-MM-DD`, UTC), `points` (int) and `user_day` (string, unique). */
    table: tableName,
    /** The setting holding the points of one check-in. */
    setting: key,
  }),
]);
export type MemberBlock = z.infer<typeof memberBlock>;

export const moduleManifest = z.object({
  name: moduleName,
  title,
  titleEn,
  version,
  author: withMessage(safeText(60).trim().min(1), msg`Please enter the author (at most 60 characters)`),
  description: withMessage(safeText(500).trim().default(""), msg`The description is too long (at most 500 characters)`),
  descriptionEn: withMessage(safeText(500).trim().default(""), msg`The description is too long (at most 500 characters)`),
  icon: z.string().max(40).regex(/^[a-z][a-z0-9-]{0,39}$/).default("package"),
  /** What it needs: this app's version at least, and other modules installed and enabled first. */
  requires: z
    .object({
      app: version.optional(),
      modules: z.array(moduleName).max(10).default([]),
    })
    .default({ modules: [] }),
  tables: withMessage(z.array(moduleTable).min(1).max(10), msg`A module has 1 to 10 tables`),
  settings: z.array(moduleSetting).max(10).default([]),
  member: z.array(memberBlock).max(5).default([]),
  /** Demo rows per table, added when installing with demo data. */
  demo: z.record(z.string().max(30), z.array(z.record(z.string().max(41), z.unknown())).max(50)).default({}),
});
export type ModuleManifest = z.infer<typeof moduleManifest>;

/** A module table as the code generator's design; `locale` "en": the fields' English labels where they have one. */
export const designOfTable = (table: ModuleTable, locale = ""): GenDesign => {
  const { menu: _m, icon: _i, fields, ...design } = table;
  const en = locale === "en";
  return {
    ...design,
    fields: fields.map(({ commentEn, optionLabelsEn, ...field }) => ({
      ...field,
      comment: en && commentEn ? commentEn : field.comment,
      optionLabels: en ? { ...field.optionLabels, ...optionLabelsEn } : field.optionLabels,
    })),
  };
};

/** Major, minor, patch compared. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** The types of the columns every module table has besides its fields. */
const RESERVED_TYPES: Record<(typeof GEN_RESERVED_COLUMNS)[number], GenFieldType> = { id: "int", weigh: "int", create_time: "datetime", update_time: "datetime" };

/**
 * Whether a member block's condition value can be compared with a column of this type: the
 * database would refuse the query otherwise (an int column and "not-a-number", a number past
 * the column's range), and the block would fail for every member.
 */
export function conditionFits(type: GenFieldType, value: string | number | boolean): boolean {
  switch (type) {
    case "int":
      return typeof value === "number" && Number.isInteger(value) && value >= DB_INT_MIN && value <= DB_INT_MAX;
    case "bigint":
    case "datetime":
      return typeof value === "number" && Number.isSafeInteger(value);
    case "decimal":
      return (typeof value === "number" && Number.isFinite(value) && Math.abs(value) < 1e20) || (typeof value === "string" && /^-?\d{1,20}(\.\d{1,2})?$/.test(value));
    case "bool":
      return typeof value === "boolean";
    case "string":
    case "text":
    case "enum":
      return typeof value === "string";
  }
}

/**
 * The first problem of a (structurally valid) manifest, or null: its name, each table's design
 * (the code generator's checks), blocks naming tables, fields and settings that exist, a
 * check-in table of the right shape, settings within their bounds, demo rows for its tables.
 */
export function manifestProblem(manifest: ModuleManifest): MessageDescriptor | null {
  const name = manifest.name;
  if (SQL_KEYWORDS.has(name)) return msg`The module name "${name}" is an SQL key word`;
  if (manifest.requires.modules.includes(name)) return msg`A module cannot need itself`;
  const tables = new Map<string, ModuleTable>();
  for (const table of manifest.tables) {
    const n = table.name;
    if (tables.has(n)) return msg`The table "${n}" is listed twice`;
    tables.set(n, table);
    const problem = designProblem(designOfTable(table));
    if (problem) return problem;
  }
  const settings = new Map<string, ModuleSetting>();
  for (const setting of manifest.settings) {
    const k = setting.key;
    if (settings.has(k)) return msg`The setting "${k}" is listed twice`;
    if (setting.min > setting.max || setting.default < setting.min || setting.default > setting.max) return msg`The setting "${k}" has a default outside its bounds`;
    settings.set(k, setting);
  }
  const fieldOf = (table: ModuleTable, field: string): { type: GenFieldType } | undefined =>
    Object.hasOwn(RESERVED_TYPES, field) ? { type: RESERVED_TYPES[field as keyof typeof RESERVED_TYPES] } : table.fields.find((f) => f.name === field);
  const blocks = new Set<string>();
  for (const block of manifest.member) {
    const b = block.name;
    if (blocks.has(b)) return msg`The member block "${b}" is listed twice`;
    blocks.add(b);
    const table = tables.get(block.table);
    if (!table) return msg`The member block "${b}" names a table the module does not have`;
    if (block.kind === "list") {
      for (const field of [block.fields.title, block.fields.body, block.fields.time, block.order.field, ...block.where.map((w) => w.field)]) {
        if (field !== undefined && !fieldOf(table, field)) return msg`The member block "${b}" names the field "${field}" its table does not have`;
      }
      for (const condition of block.where) {
        const field = condition.field;
        const type = fieldOf(table, field)!.type;
        if (!conditionFits(type, condition.eq)) return msg`The member block "${b}" compares the field "${field}" (${type}) with a value of another type`;
      }
    } else {
      const has = (field: string, types: string[], unique = false) => {
        const f = table.fields.find((x) => x.name === field);
        return f !== undefined && types.includes(f.type) && (!unique || f.index === "unique");
      };
      if (!has("user_id", ["int"]) || !has("day", ["string"]) || !has("points", ["int"]) || !has("user_day", ["string"], true)) {
        return msg`The check-in table of "${b}" needs the fields user_id, day, points and a unique user_day`;
      }
      if (settings.get(block.setting)?.type !== "int") return msg`The member block "${b}" names a setting the module does not have`;
    }
  }
  for (const t of Object.keys(manifest.demo)) if (!tables.has(t)) return msg`The demo rows name the table "${t}" the module does not have`;
  return null;
}

/** `POST /admin/moduleStore/moduleStore/install`. */
export const installBody = z.object({ name: moduleName, demo: z.boolean().optional() });
/** `enable`, `disable`. */
export const moduleNameBody = z.object({ name: moduleName });
/** `uninstall`: the tables are kept unless `dropData`. */
export const uninstallBody = z.object({ name: moduleName, dropData: z.boolean().optional() });
/** `settings`: values by key (each within the setting's bounds). */
export const moduleSettingsBody = z.object({ name: moduleName, values: z.record(key, z.number().int()) });
/** `upload`: a module zip as base64. */
export const moduleUploadBody = z.object({
  name: withMessage(safeText(200).default(""), msg`The file name is too long`),
  data: withMessage(z.string().min(1).max(Math.ceil((MODULE_ZIP.maxBytes * 4) / 3) + 4), msg`The module zip is too large (at most 2 MB)`),
});
/** `POST /api/module/checkIn`. */
export const checkInBody = z.object({ module: moduleName, block: key });

export type ModuleStatus = "available" | "enabled" | "disabled";

/** A module as the market lists it. */
export interface ModuleRow {
  name: string;
  title: string;
  titleEn: string;
  version: string;
  author: string;
  description: string;
  descriptionEn: string;
  icon: string;
  source: "bundled" | "catalogue" | "installed";
  status: ModuleStatus;
  /** The version installed (may differ from the catalogue's). */
  installedVersion: string | null;
  requires: { app?: string | undefined; modules: string[] };
  tables: { name: string; table: string; title: string; titleEn: string }[];
  settings: ModuleSetting[];
  values: Record<string, number>;
  hasDemo: boolean;
}

/** What members see of enabled modules. */
export type HomeBlock =
  | { kind: "list"; module: string; name: string; title: string; items: { id: number; title: string; body: string; time: number | null }[] }
  | { kind: "dailyPoints"; module: string; name: string; title: string; points: number; checkedIn: boolean };
