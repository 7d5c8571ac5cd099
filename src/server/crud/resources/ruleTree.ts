import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { z } from "zod";
import type { CrudContext, FieldDef, ResourceDef, Row } from "../resource.ts";
import { parseRules } from "./permissions.ts";
import { standardFields } from "./fields.ts";
import { lockedGroupsWithRules, setGroupRules, type GroupTable } from "./ruleTree.repository.ts";

/**
 * A rule tree (admin menu rules, member rules): directories, menus and buttons by `pid`,
 * sortable by weigh. A rule with sub-rules cannot be deleted (the engine's tree check); a deleted rule leaves every group
 * of `groupTable` that granted it (so no group keeps an id that no longer exists, which its
 * edit would refuse). `guard` refuses a change of rows the acting admin may not touch.
 */
export function ruleTreeResource(options: {
  rule: string;
  title: MessageDescriptor;
  table: "admin_rule" | "user_rule";
  groupTable: GroupTable;
  types: readonly string[];
  /** Fields only this tree has (e.g. the admin menus' `extend`). */
  extraFields?: Record<string, FieldDef>;
  add: z.ZodType;
  edit: z.ZodType;
  /** Refuses a change or delete of `rows`; on add and edit `body` is the row written. */
  guard?: (ctx: CrudContext, rows: Row[], body?: Row) => Promise<void>;
}): ResourceDef {
  const { table, groupTable, guard, extraFields = {} } = options;
  return {
    rule: options.rule,
    title: options.title,
    table,
    fields: {
      ...standardFields("id", "pid"),
      type: { column: "t.type", type: "enum", values: options.types },
      title: { column: "t.title", type: "text" },
      title_en: { column: "t.title_en", type: "text" },
      name: { column: "t.name", type: "text" },
      path: { column: "t.path", type: "text" },
      icon: { column: "t.icon", type: "text" },
      menu_type: { column: "t.menu_type", type: "enum", values: ["tab", "link", "iframe"] },
      url: { column: "t.url", type: "text" },
      component: { column: "t.component", type: "text" },
      keepalive: { column: "t.keepalive", type: "bool" },
      ...extraFields,
      ...standardFields("weigh", "status", "create_time", "update_time"),
    },
    quickSearch: ["id", "title", "title_en", "name"],
    selectFields: ["id", "pid", "title", "title_en", "name"],
    defaultOrder: ["weigh", "desc"],
    tree: true,
    childrenRefusal: msg`Delete or move its sub-rules first`,
    sortable: true,
    editColumns: ["id", "pid", "type", "title", "title_en", "name", "path", "icon", "menu_type", "url", "component", "keepalive", ...Object.keys(extraFields), "remark", "weigh", "status", "create_time", "update_time"],
    add: options.add,
    edit: options.edit,
    del: true,
    touch: true,
    hooks: {
      ...(guard && {
        async beforeWrite(ctx: CrudContext, body: Row, existing: Row | null) {
          await guard(ctx, existing ? [existing] : [], body);
          const { id: _id, ...row } = body;
          return row;
        },
      }),
      async beforeDelete(ctx, rows) {
        if (guard) await guard(ctx, rows);
        const gone = new Set(rows.map((r) => r.id as number));
        const groups = await lockedGroupsWithRules(ctx.tx, groupTable);
        for (const group of groups) {
          const parsed = parseRules(group.rules);
          if (parsed === "all" || !parsed.some((id) => gone.has(id))) continue;
          await setGroupRules(ctx.tx, groupTable, group.id, parsed.filter((id) => !gone.has(id)).join(","));
        }
      },
    },
  };
}
