import { msg } from "@lingui/core/macro";
import type { z } from "zod";
import type { ResourceDecl } from "../../../shared/admin/fields.ts";
import { RULE_TREE_FIELDS } from "../../../shared/admin/resources/ruleTree.ts";
import type { CrudContext, ResourceDef, Row } from "../resource.ts";
import { parseRules } from "./permissions.ts";
import { declared } from "./fields.ts";
import { lockedGroupsWithRules, setGroupRules, type GroupTable } from "./ruleTree.repository.ts";

/**
 * A rule tree (admin menu rules, member rules, declared with shared/admin/resources/ruleTree.ts):
 * directories, menus and buttons by `pid`, sortable by weigh. A rule with sub-rules cannot be deleted (the engine's tree check); a deleted rule leaves every group
 * of `groupTable` that granted it (so no group keeps an id that no longer exists, which its
 * edit would refuse). `guard` refuses a change of rows the acting admin may not touch.
 */
export function ruleTreeResource(options: {
  decl: ResourceDecl;
  table: "admin_rule" | "user_rule";
  groupTable: GroupTable;
  add: z.ZodType;
  edit: z.ZodType;
  /** Refuses a change or delete of `rows`; on add and edit `body` is the row written. */
  guard?: (ctx: CrudContext, rows: Row[], body?: Row) => Promise<void>;
}): ResourceDef {
  const { decl, table, groupTable, guard } = options;
  // The fields only this tree has (e.g. the admin menus' `extend`) are edited too.
  const own = Object.keys(decl.fields).filter((name) => !RULE_TREE_FIELDS.includes(name));
  return {
    ...declared(decl),
    table,
    selectFields: ["id", "pid", "title", "title_en", "name"],
    defaultOrder: ["weigh", "desc"],
    childrenRefusal: msg`Delete or move its sub-rules first`,
    editColumns: ["id", "pid", "type", "title", "title_en", "name", "path", "icon", "menu_type", "url", "component", "keepalive", ...own, "remark", "weigh", "status", "create_time", "update_time"],
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
