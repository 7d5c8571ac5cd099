import { msg } from "@lingui/core/macro";
import type { ResourceDef } from "../resource.ts";
import { standardFields } from "./fields.ts";

/** The admin log (`/admin/auth/adminLog/...`): read-only; its detail needs the view rule. */
export const adminLogResource: ResourceDef = {
  rule: "auth/adminLog",
  title: msg`Admin log`,
  table: "admin_log",
  fields: {
    ...standardFields("id"),
    admin_id: { column: "t.admin_id", type: "int" },
    username: { column: "t.username", type: "text" },
    title: { column: "t.title", type: "text" },
    url: { column: "t.url", type: "text" },
    method: { column: "t.method", type: "enum", values: ["GET", "POST", "DELETE", "PUT", "PATCH"] },
    ip: { column: "t.ip", type: "text" },
    useragent: { column: "t.useragent", type: "text" },
    ...standardFields("create_time"),
  },
  // A company admin reads the log of their company's admins.
  joins: [{ table: "admin", alias: "a", on: ["a.id", "t.admin_id"] }],
  company: { column: "a.company_id" },
  quickSearch: ["id", "username", "title", "url"],
  editColumns: ["id", "admin_id", "username", "title", "url", "method", "data", "ip", "useragent", "create_time"],
  rules: { edit: "auth/adminLog/index" },
};
