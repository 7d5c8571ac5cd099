import { msg } from "@lingui/core/macro";
import { declareResource, standardDecls, STANDARD_FIELDS } from "../fields.ts";

/** The admin log (auth/adminLog): every write an admin made, read-only. */
export const adminLogDecl = declareResource({
  rule: "auth/adminLog",
  title: msg`Admin log`,
  fields: {
    ...standardDecls("id"),
    admin_id: { type: "int" },
    username: { type: "text", label: msg`Admin username` },
    title: { type: "text", label: msg`Title` },
    url: { type: "text", label: msg`URL` },
    method: { type: "enum", values: ["GET", "POST", "DELETE", "PUT", "PATCH"], label: msg`Method` },
    ip: { type: "text", label: msg`IP` },
    useragent: { type: "text", label: msg`User agent` },
    create_time: { ...STANDARD_FIELDS.create_time, label: msg`Time` },
  },
  quickSearch: { fields: ["id", "username", "title", "url"], label: msg`ID, admin, title, url` },
  columns: [
    { field: "id", render: "number", sortable: true },
    { field: "username", search: "text" },
    { field: "title", search: "text" },
    { field: "url", search: "text" },
    { field: "method", render: "tag", hidden: true },
    { field: "ip", search: "text" },
    { field: "useragent", hidden: true },
    { field: "create_time", render: "datetime", sortable: true, search: "datetime" },
  ],
});
