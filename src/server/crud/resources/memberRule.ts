import { msg } from "@lingui/core/macro";
import { MEMBER_RULE_TYPES, memberRuleAdd, memberRuleEdit } from "../../../shared/admin/members.ts";
import { ApiError } from "../../errors.ts";
import type { ResourceDef } from "../resource.ts";
import { parseRules } from "./permissions.ts";

/**
 * Member rules (`/admin/user/rule/...`): the tree of routes, menus and buttons the member center
 * builds its menus from (modules/user/index.ts, by the member's group). A tree by `pid`,
 * sortable by weigh; a rule with sub-rules cannot be deleted, and a deleted rule leaves the
 * groups that granted it.
 */
export const memberRuleResource: ResourceDef = {
  rule: "user/rule",
  title: msg`Member rules`,
  table: "user_rule",
  fields: {
    id: { column: "t.id", type: "int" },
    pid: { column: "t.pid", type: "int" },
    type: { column: "t.type", type: "enum", values: MEMBER_RULE_TYPES },
    title: { column: "t.title", type: "text" },
    title_en: { column: "t.title_en", type: "text" },
    name: { column: "t.name", type: "text" },
    path: { column: "t.path", type: "text" },
    icon: { column: "t.icon", type: "text" },
    menu_type: { column: "t.menu_type", type: "enum", values: ["tab", "link", "iframe"] },
    url: { column: "t.url", type: "text" },
    component: { column: "t.component", type: "text" },
    keepalive: { column: "t.keepalive", type: "bool" },
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
  editColumns: ["id", "pid", "type", "title", "title_en", "name", "path", "icon", "menu_type", "url", "component", "keepalive", "remark", "weigh", "status", "create_time", "update_time"],
  add: memberRuleAdd,
  edit: memberRuleEdit,
  del: true,
  touch: true,
  hooks: {
    async beforeDelete(ctx, rows) {
      const ids = rows.map((r) => r.id as number);
      const { rows: children } = await ctx.tx.query("select id from user_rule where pid = any($1::int[]) and not (id = any($1::int[])) limit 1", [ids]);
      if (children.length > 0) throw new ApiError(msg`Delete or move its sub-rules first`);
      // The groups that granted a deleted rule no longer name it (a group's edit checks every id exists).
      const gone = new Set(ids);
      const { rows: groups } = await ctx.tx.query<{ id: number; rules: string }>("select id, rules from user_group where rules <> '*' and rules <> '' for update");
      for (const group of groups) {
        const parsed = parseRules(group.rules);
        if (parsed === "all" || !parsed.some((id) => gone.has(id))) continue;
        await ctx.tx.query("update user_group set rules = $1 where id = $2", [parsed.filter((id) => !gone.has(id)).join(","), group.id]);
      }
    },
  },
};
