import { msg } from "@lingui/core/macro";
import { examClassifyAdd, examClassifyEdit } from "../../../shared/admin/questions.ts";
import { STATUS_OPTIONS } from "../auth/options.ts";
import { assignmentFields } from "../org/fields.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { bankTitle } from "./options.ts";
import { bankWithheldCell } from "./withholdingCells.tsx";

const KINDS = [
  { value: "practice", label: msg`Practice bank (members download it)` },
  { value: "exam", label: msg`Exam-only bank (answers stay on the server)` },
];

/** Question banks (`exam/classify`): a tree; a node's questions are practised or used by exam papers. */
const classify: CrudDefinition = {
  path: "exam/classify",
  title: msg`Question banks`,
  quickSearch: msg`ID, title`,
  tree: true,
  sortable: true,
  pageSize: 100,
  columns: [
    { field: "title", label: msg`Title`, search: "text" },
    { field: "title_en", label: msg`English title`, search: "text" },
    { field: "kind", label: msg`Kind`, render: "tag", options: KINDS, search: "select" },
    { field: "withheld", viaHook: true, label: msg`Kept from practice`, cell: bankWithheldCell },
    { field: "weigh", label: msg`Weight`, render: "number" },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "update_time", label: msg`Updated`, render: "datetime", hidden: true },
    { field: "id", label: msg`ID`, render: "number", hidden: true },
  ],
  form: [
    { field: "pid", label: msg`Parent bank`, kind: "treeSelect", tree: { path: "exam/classify", label: bankTitle } },
    { field: "title", label: msg`Title`, kind: "text" },
    { field: "title_en", label: msg`English title`, kind: "text" },
    { field: "kind", label: msg`Kind`, kind: "radio", options: KINDS, initial: "practice" },
    { field: "weigh", label: msg`Weight`, kind: "number", initial: 0 },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
    ...assignmentFields,
  ],
  schema: examClassifyAdd,
  editSchema: examClassifyEdit.omit({ id: true }),
};

export default classify;
