import { msg } from "@lingui/core/macro";
import type { CrudDefinition } from "../crud/types.ts";

/** The admin log (auth/adminLog): read-only, filtered by admin, url and time; each row's details (data, user agent) in a dialog. */
const adminLog: CrudDefinition = {
  path: "auth/adminLog",
  title: msg`Admin log`,
  quickSearch: msg`ID, admin, title, url`,
  buttons: ["refresh", "columns", "search"],
  detail: true,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "username", label: msg`Admin username`, search: "text" },
    { field: "title", label: msg`Title`, search: "text" },
    { field: "url", label: msg`URL`, search: "text" },
    { field: "method", label: msg`Method`, render: "tag", hidden: true },
    { field: "ip", label: msg`IP`, search: "text" },
    { field: "useragent", label: msg`User agent`, hidden: true },
    { field: "create_time", label: msg`Time`, render: "datetime", sortable: true, search: "datetime" },
  ],
};

export default adminLog;
