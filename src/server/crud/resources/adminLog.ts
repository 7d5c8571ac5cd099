import { adminLogDecl } from "../../../shared/admin/resources/auth.ts";
import { logTitleIn } from "../log.ts";
import type { ResourceDef, Row } from "../resource.ts";
import { declared, joinById } from "./fields.ts";

/** The admin log (`/admin/auth/adminLog/...`): read-only; its detail needs the view rule. */
export const adminLogResource: ResourceDef = {
  ...declared(adminLogDecl),
  table: "admin_log",
  // A company admin reads the log of their company's admins.
  joins: [joinById("admin", "a", "t.admin_id")],
  company: { column: "a.company_id" },
  editColumns: ["id", "admin_id", "username", "title", "url", "method", "data", "ip", "useragent", "create_time"],
  rules: { edit: "auth/adminLog/index" },
  hooks: {
    // Each row's title in the reader's language (it is stored in English).
    listRows: async (ctx, rows) => rows.map((row) => shownIn(row, ctx.req.t)),
    editRow: async (ctx, row) => shownIn(row, ctx.req.t),
  },
};

const shownIn = (row: Row, t: Parameters<typeof logTitleIn>[1]): Row => ({ ...row, title: logTitleIn(String(row.title ?? ""), t) });
