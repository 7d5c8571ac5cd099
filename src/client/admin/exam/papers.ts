import { msg } from "@lingui/core/macro";
import { ListOrdered } from "lucide-react";
import { paperAdd, paperEdit } from "../../../shared/admin/papers.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { PaperComposer, rowsTotalCell } from "./PaperComposer.tsx";
import { MinutesField, PaperRowsTotal, minutesOf } from "./RoomFields.tsx";
import { STATUS_OPTIONS } from "./options.ts";
import { paperMockCell } from "./withholdingCells.tsx";

/**
 * Papers (`exam/paper`): marks, time (typed in minutes, kept in seconds) and grading options; their
 * questions composed from each row ("Questions"); the list and the edit form say when the questions
 * do not add up to the total (a room cannot use such a paper).
 */
const papers: CrudDefinition = {
  path: "exam/paper",
  title: msg`Papers`,
  quickSearch: msg`ID, title`,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "title", label: msg`Title`, search: "text", sortable: true },
    { field: "total_score", label: msg`Total score`, render: "number", sortable: true },
    { field: "rows_total", viaHook: true, label: msg`Questions add up to`, cell: rowsTotalCell },
    { field: "pass_score", label: msg`Pass score`, render: "number" },
    { field: "withholding", viaHook: true, label: msg`Mock paper`, cell: paperMockCell },
    { field: "duration", label: msg`Duration (min)`, cell: (r) => minutesOf(r.duration), hidden: true },
    { field: "shuffle_options", label: msg`Shuffle options`, render: "switch", hidden: true },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
    { field: "create_time", label: msg`Created`, render: "datetime", sortable: true, hidden: true },
  ],
  form: [
    { field: "title", label: msg`Title`, kind: "text" },
    { field: "total_score", label: msg`Total score`, kind: "number", initial: 100 },
    { field: "rows_total", display: true, label: msg`Questions add up to`, kind: "custom", component: PaperRowsTotal, only: "edit" },
    { field: "pass_score", label: msg`Pass score`, kind: "number", initial: 60 },
    { field: "duration", label: msg`Duration (minutes)`, kind: "custom", component: MinutesField, initial: 3600 },
    { field: "shuffle_options", label: msg`Shuffle options`, kind: "switch", boolean: true },
    { field: "partial_credit", label: msg`Partial credit for multiple choice`, kind: "switch", boolean: true },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: paperAdd,
  editSchema: paperEdit.omit({ id: true }),
  rowActions: [{ key: "compose", label: msg`Questions`, icon: ListOrdered, action: "exam/paperRow/index", component: PaperComposer, size: "lg" }],
};

export default papers;
