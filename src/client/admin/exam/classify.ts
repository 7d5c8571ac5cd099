import { msg } from "@lingui/core/macro";
import { examClassifyAdd, examClassifyEdit, questionBankTree } from "../../../shared/admin/questions.ts";
import { categoryTreeDefinition } from "../crud/categoryTree.ts";
import { assignmentFields } from "../org/fields.ts";
import { bankTitle } from "./options.ts";
import { bankWithheldCell } from "./withholdingCells.tsx";

const KINDS = [
  { value: "practice", label: msg`Practice bank (members download it)` },
  { value: "exam", label: msg`Exam-only bank (answers stay on the server)` },
];

/** Question banks (`exam/classify`): a tree; a node's questions are practised or used by exam papers. */
const classify = categoryTreeDefinition(questionBankTree, {
  rowLabel: bankTitle,
  choiceOptions: KINDS,
  columns: [{ field: "withheld", viaHook: true, label: msg`Kept from practice`, cell: bankWithheldCell }],
  form: assignmentFields,
  schema: examClassifyAdd,
  editSchema: examClassifyEdit.omit({ id: true }),
});

export default classify;
