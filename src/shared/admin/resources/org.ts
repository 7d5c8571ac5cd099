import { msg } from "@lingui/core/macro";
import { declareResource, NAME_SEARCH, refFields, STANDARD_FIELDS, standardColumns, standardDecls } from "../fields.ts";
import { ACCOUNT_FIELDS } from "./accounts.ts";

/** The organisation's companies, duties and classrooms, as both sides list them. */

/** Companies (org/company): a tree a company admin sees from their own company down. */
export const companyDecl = declareResource({
  rule: "org/company",
  title: msg`Companies`,
  fields: {
    ...standardDecls("pid", "name", "weigh", "status", "create_time", "update_time"),
  },
  quickSearch: NAME_SEARCH,
  sortable: true,
  tree: true,
  columns: [
    { field: "name", search: "text" },
    ...standardColumns({ weigh: {}, status: { search: true }, create_time: { hidden: true }, id: { hidden: true } }),
  ],
});

/** Duties (org/duty): the posts members hold, which courses and rooms may be assigned to. */
export const dutyDecl = declareResource({
  rule: "org/duty",
  title: msg`Duties`,
  fields: {
    ...standardDecls("name", "weigh", "status", "create_time", "update_time"),
  },
  quickSearch: NAME_SEARCH,
  sortable: true,
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "name", search: "text", sortable: true },
    ...standardColumns({ weigh: { sortable: true }, status: { search: true }, create_time: { sortable: true, hidden: true } }),
  ],
});

/** Classrooms (org/classroom): a company's class with its head teacher and dates; its member count from the list hook. */
export const classroomDecl = declareResource({
  rule: "org/classroom",
  title: msg`Classrooms`,
  fields: {
    name: STANDARD_FIELDS.name,
    ...refFields("company", "name", msg`Company`),
    head_admin_id: { type: "int", label: msg`Head teacher` },
    head_name: { type: "text" },
    head_username: { type: "text" },
    start_time: { type: "time", label: msg`Starts` },
    end_time: { type: "time", label: msg`Ends` },
    ...standardDecls("status", "create_time", "update_time"),
  },
  quickSearch: { fields: ["id", "name", "company_name", "head_name"], label: msg`ID, name, company, head teacher` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "name", search: "text", sortable: true },
    { field: "company_id", search: "select", remote: { path: "org/company", labelField: "name" } },
    { field: "head_admin_id" },
    { hook: "member_count", label: msg({ message: "Members", context: "classroom member count" }), render: "number" },
    { field: "start_time", render: "datetime", sortable: true, search: "datetime" },
    { field: "end_time", render: "datetime", sortable: true },
    ...standardColumns({ status: { search: true } }),
  ],
});

/**
 * The head-teacher picker of the classroom form (org/headTeacher, `select=1`): staff accounts, read
 * by whoever may list classrooms; a company admin sees only the admins of their company and those under it.
 */
export const headTeacherDecl = declareResource({
  rule: "org/headTeacher",
  title: msg`Head teachers`,
  fields: {
    username: ACCOUNT_FIELDS.username,
    nickname: ACCOUNT_FIELDS.nickname,
    ...refFields("company", "name"),
    ...standardDecls("status"),
  },
  quickSearch: { fields: ["id", "username", "nickname"] },
  picker: true,
  columns: [],
});
