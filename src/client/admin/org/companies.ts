import { msg } from "@lingui/core/macro";
import { companyAdd, companyEdit } from "../../../shared/admin/org.ts";
import { STATUS_OPTIONS } from "../auth/options.ts";
import type { CrudDefinition } from "../crud/types.ts";

/** Companies (org/company): a tree by parent, reordered by weigh. */
const companies: CrudDefinition = {
  path: "org/company",
  title: msg`Companies`,
  quickSearch: msg`ID, name`,
  tree: true,
  sortable: true,
  pageSize: 100,
  columns: [
    { field: "name", label: msg`Name`, search: "text" },
    { field: "weigh", label: msg`Weight`, render: "number" },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "create_time", label: msg`Created`, render: "datetime", hidden: true },
    { field: "id", label: msg`ID`, render: "number", hidden: true },
  ],
  form: [
    { field: "pid", label: msg`Parent company`, kind: "treeSelect", tree: { path: "org/company", label: "name" } },
    { field: "name", label: msg`Name`, kind: "text" },
    { field: "weigh", label: msg`Weight`, kind: "number", initial: 0, hint: msg`Higher comes first` },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: companyAdd,
  editSchema: companyEdit.omit({ id: true }),
};

export default companies;
