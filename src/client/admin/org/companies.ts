import { msg } from "@lingui/core/macro";
import { companyAdd, companyEdit } from "../../../shared/admin/org.ts";
import { companyDecl } from "../../../shared/admin/resources/org.ts";
import { WEIGH_AND_STATUS, declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";

/** Companies (org/company): a tree by parent, reordered by weigh. */
const companies: CrudDefinition = {
  ...declaredScreen(companyDecl),
  pageSize: 100,
  form: declaredForm(companyDecl, [
    { field: "pid", label: msg`Parent company`, kind: "treeSelect", tree: { path: "org/company", label: "name" } },
    { field: "name", kind: "text" },
    ...WEIGH_AND_STATUS,
  ]),
  schema: companyAdd,
  editSchema: companyEdit.omit({ id: true }),
};

export default companies;
