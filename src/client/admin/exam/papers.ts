import { msg } from "@lingui/core/macro";
import { ListOrdered } from "lucide-react";
import { paperAdd, paperEdit } from "../../../shared/admin/papers.ts";
import { paperDecl } from "../../../shared/admin/resources/exam.ts";
import { declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { PaperComposer, rowsTotalCell } from "./PaperComposer.tsx";
import { MinutesField, PaperRowsTotal, minutesOf } from "./RoomFields.tsx";
import { paperMockCell } from "./withholdingCells.tsx";

/**
 * Papers (`exam/paper`): marks, time (typed in minutes, kept in seconds) and grading options; their
 * questions composed from each row ("Questions"); the list and the edit form say when the questions
 * do not add up to the total (a room cannot use such a paper).
 */
const papers: CrudDefinition = {
  ...declaredScreen(paperDecl, { rows_total: rowsTotalCell, withholding: paperMockCell, duration: (r) => minutesOf(r.duration) }),
  form: declaredForm(paperDecl, [
    { field: "title", kind: "text" },
    { field: "total_score", kind: "number", initial: 100 },
    { field: "rows_total", display: true, label: msg`Questions add up to`, kind: "custom", component: PaperRowsTotal, only: "edit" },
    { field: "pass_score", kind: "number", initial: 60 },
    { field: "duration", label: msg`Duration (minutes)`, kind: "custom", component: MinutesField, initial: 3600 },
    { field: "shuffle_options", kind: "switch", boolean: true },
    { field: "partial_credit", kind: "switch", boolean: true },
    { field: "status", kind: "radio", initial: "enable" },
  ]),
  schema: paperAdd,
  editSchema: paperEdit.omit({ id: true }),
  rowActions: [{ key: "compose", label: msg`Compose questions`, icon: ListOrdered, action: "exam/paperRow/index", component: PaperComposer, size: "lg" }],
};

export default papers;
