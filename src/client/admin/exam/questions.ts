import { msg } from "@lingui/core/macro";
import { Download, Upload } from "lucide-react";
import { createElement } from "react";
import { questionAdd, questionEdit } from "../../../shared/admin/questions.ts";
import { textParts } from "../../../shared/exam/questionText.ts";
import { STATUS_OPTIONS } from "../auth/options.ts";
import { questionDecl } from "../../../shared/admin/resources/exam.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition, CrudRow } from "../crud/types.ts";
import { AnswerEditor, OptionsEditor, QuestionPreview, StemEditor } from "./QuestionEditor.tsx";
import { QuestionUsageNotice } from "./QuestionUsage.tsx";
import { QuestionHistory } from "./QuestionVersions.tsx";
import { BankName, ExportDialog, ImportDialog } from "./QuestionSheet.tsx";
import { DIFFICULTY_OPTIONS, QUESTION_TYPE_OPTIONS, bankTitle } from "./options.ts";

const isChoice = (v: Record<string, unknown>) => v.type === "single" || v.type === "multiple";
/** The stem as list text: images shown as 🖼, clipped. */
const stemCell = (row: CrudRow) => {
  const text = textParts(String(row.stem ?? "")).map((p) => (p.kind === "text" ? p.text : "🖼")).join("");
  return createElement("span", { className: "line-clamp-2 max-w-md", title: text }, text);
};

/** Questions (`exam/question`): every kind, edited with the question editor; spreadsheets in and out. */
const questions: CrudDefinition = {
  ...declaredScreen(questionDecl, { stem: stemCell, classify_id: (row) => createElement(BankName, { row }) }),
  form: [
    { field: "classify_id", label: msg`Bank`, kind: "treeSelect", tree: { path: "exam/classify", label: bankTitle }, placeholder: msg`Please select` },
    { field: "type", label: msg`Question type`, kind: "radio", options: QUESTION_TYPE_OPTIONS, initial: "single" },
    { field: "stem", label: msg`Question`, kind: "custom", component: StemEditor, initial: "" },
    { field: "options", label: msg`Options`, kind: "custom", component: OptionsEditor, when: isChoice, initial: ["", "", "", ""].map((text, i) => ({ key: "ABCD"[i], text })) },
    { field: "answer", label: msg`Correct answer`, kind: "custom", component: AnswerEditor, initial: "" },
    { field: "analysis", label: msg`Analysis`, kind: "textarea" },
    { field: "difficulty", label: msg`Difficulty`, kind: "radio", options: DIFFICULTY_OPTIONS, initial: 1 },
    { field: "score", label: msg({ message: "Score", context: "question" }), kind: "number", initial: 2 },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
    { field: "weigh", label: msg`Weight`, kind: "number", initial: 0 },
    { field: "preview", display: true, label: msg`Preview (as members see it)`, kind: "custom", component: QuestionPreview },
    // The server's edit row names the question here (`history`): its versions, newest first.
    { field: "history", display: true, label: msg`Versions`, kind: "custom", component: QuestionHistory, when: (v) => typeof v.history === "number" },
  ],
  schema: questionAdd,
  editSchema: questionEdit.omit({ id: true }),
  // A question in use (a paper's fixed row, an attempt) is hidden, not deleted: the confirm says where it is used.
  deleteNotice: QuestionUsageNotice,
  batchActions: [{ name: "restore", label: msg`Restore`, confirm: msg`Bring the selected hidden questions back (as they were before they were hidden)?` }],
  toolbarActions: [
    { key: "import", label: msg`Import`, icon: Upload, action: "import", size: "lg", component: ImportDialog },
    { key: "export", label: msg`Export a bank`, icon: Download, action: "export", component: ExportDialog },
  ],
};

export default questions;
