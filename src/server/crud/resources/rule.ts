import { msg } from "@lingui/core/macro";
import { adminRuleAdd, adminRuleEdit } from "../../../shared/admin/schemas.ts";
import { ApiError } from "../../errors.ts";
import { adminRuleIds } from "../../modules/admin/rules.ts";
import type { CrudContext, ResourceDef, Row } from "../resource.ts";

/** A non-super admin may change or delete only rules they hold (so no one frees or renames a rule above them). */
async function requireHeld(ctx: CrudContext, rows: Row[]): Promise<void> {
  const held = await adminRuleIds(ctx.tx, ctx.admin);
  if (held !== "all" && rows.some((r) => !held.has(r.id as number))) throw new ApiError(msg`You can only change rules you hold yourself`);
}

/** Menu rules (`/admin/auth/rule/...`): a tree of directories, menus and buttons, sortable by weigh. */
export const adminRuleResource: ResourceDef = {
  rule: "auth/rule",
  title: msg`Rules`,
  table: "admin_rule",
  fields: {
    id: { column: "t.id", type: "int" },
    pid: { column: "t.pid", type: "int" },
    type: { column: "t.type", type: "enum", values: ["menu_dir", "menu", "button"] },
    title: { column: "t.title", type: "text" },
    title_en: { column: "t.title_en", type: "text" },
    name: { column: "t.name", type: "text" },
    path: { column: "t.path", type: "text" },
    icon: { column: "t.icon", type: "text" },
    menu_type: { column: "t.menu_type", type: "enum", values: ["tab", "link", "iframe"] },
    url: { column: "t.url", type: "text" },
    component: { column: "t.component", type: "text" },
    keepalive: { column: "t.keepalive", type: "bool" },
    extend: { column: "t.extend", type: "enum", values: ["none", "add_rules_only", "add_menu_only"] },
    weigh: { column: "t.weigh", type: "int" },
    status: { column: "t.status", type: "enum", values: ["enable", "disable"] },
    create_time: { column: "t.create_time", type: "time" },
    update_time: { column: "t.update_time", type: "time" },
  },
  quickSearch: ["id", "title", "title_en", "name"],
  selectFields: ["id", "pid", "title", "title_en", "name"],
  defaultOrder: ["weigh", "desc"],
  tree: true,
  sortable: true,
  editColumns: ["id", "pid", "type", "title", "title_en", "name", "path", "icon", "menu_type", "url", "component", "keepalive", "extend", "remark", "weigh", "status", "create_time", "update_time"],
  add: adminRuleAdd,
  edit: adminRuleEdit,
  del: true,
  touch: true,
  hooks: {
    async beforeWrite(ctx, body, existing) {
      if (existing) await requireHeld(ctx, [existing]);
      const { id: _id, ...row } = body;
      return row;
    },
    async beforeDelete(ctx, rows) {
      await requireHeld(ctx, rows);
      const ids = rows.map((r) => r.id as number);
      const { rows: children } = await ctx.tx.query("select id from admin_rule where pid = any($1::int[]) and not (id = any($1::int[])) limit 1", [ids]);
      if (children.length > 0) throw new ApiError(msg`Delete or move its sub-rules first`);
    },
  },
};
