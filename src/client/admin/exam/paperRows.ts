import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { paperRowAdd } from "../../../shared/admin/papers.ts";
import type { CrudDefinition, CrudRow } from "../crud/types.ts";
import { DIFFICULTY_OPTIONS, QUESTION_TYPE_OPTIONS, ROW_KIND_OPTIONS } from "./options.ts";
import { PinnedVersionField } from "./QuestionVersions.tsx";

/** A fixed row's version: the one it pins, or the latest it follows. */
function versionCell(row: CrudRow): string {
  if (row.kind !== "fixed") return "–";
  const latest = row.question_latest_version;
  if (row.question_version !== null && row.question_version !== undefined) return i18n._(msg`Version ${String(row.question_version)} (pinned)`);
  return latest === null || latest === undefined ? i18n._(msg`Latest`) : i18n._(msg`Latest (${String(latest)})`);
}

/** A draw rule's difficulty: its level, or "Any" (null); a fixed row has none of its own. */
function difficultyCell(row: CrudRow): string {
  if (row.kind !== "draw") return "–";
  return row.difficulty === null || row.difficulty === undefined ? i18n._(msg`Any`) : String(row.difficulty);
}

/** Question rows of papers (`exam/paperRow`): fixed questions and draw rules (type, difficulty or any, count), in paper order. */
const paperRows: CrudDefinition = {
  path: "exam/paperRow",
  title: msg`Question rows`,
  quickSearch: msg`ID, paper, question, classify, note`,
  sortable: true,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "paper_id", label: msg`Paper`, cell: (r) => String(r.paper_title ?? r.paper_id), search: "select", remote: { path: "exam/paper", labelField: "title" } },
    { field: "kind", label: msg`Kind`, render: "tag", options: ROW_KIND_OPTIONS, search: "select" },
    { field: "question_stem", label: msg`Question`, cell: (r) => String(r.question_stem ?? "–") },
    { field: "question_version", label: msg`Version`, cell: versionCell },
    { field: "classify_title", label: msg`Classify`, cell: (r) => String(r.classify_title ?? "–") },
    { field: "question_type", label: msg`Type`, render: "tag", options: QUESTION_TYPE_OPTIONS },
    { field: "difficulty", label: msg`Difficulty`, cell: difficultyCell },
    { field: "count", label: msg`Count`, render: "number" },
    { field: "score", label: msg`Score each`, render: "number" },
    { field: "subtotal", viaHook: true, label: msg`Subtotal`, render: "number" },
    { field: "remark", label: msg`Note`, search: "text", hidden: true },
    { field: "weigh", label: msg`Weigh`, render: "number", sortable: true, hidden: true },
  ],
  form: [
    { field: "paper_id", label: msg`Paper`, kind: "remoteSelect", remote: { path: "exam/paper", labelField: "title" } },
    { field: "kind", label: msg`Kind`, kind: "radio", options: ROW_KIND_OPTIONS, initial: "fixed" },
    { field: "question_id", label: msg`Question`, kind: "remoteSelect", remote: { path: "exam/question", labelField: "stem" }, when: (v) => v.kind === "fixed" },
    {
      field: "question_version",
      label: msg`Version`,
      kind: "custom",
      component: PinnedVersionField,
      initial: null,
      hint: msg`Pin a version to keep this paper on it when the question is edited`,
      when: (v) => v.kind === "fixed",
    },
    { field: "classify_id", label: msg`Classify`, kind: "remoteSelect", remote: { path: "exam/classify", labelField: "title" }, when: (v) => v.kind === "draw" },
    { field: "question_type", label: msg`Question type`, kind: "select", options: QUESTION_TYPE_OPTIONS, when: (v) => v.kind === "draw" },
    {
      field: "difficulty",
      label: msg`Difficulty`,
      kind: "select",
      options: DIFFICULTY_OPTIONS,
      placeholder: msg`Any difficulty`,
      hint: msg`Draw only questions of this difficulty; "Any difficulty" draws from all of them`,
      when: (v) => v.kind === "draw",
    },
    { field: "count", label: msg`Count`, kind: "number", initial: 1, when: (v) => v.kind === "draw" },
    { field: "score", label: msg`Score each`, kind: "number", initial: 1 },
    { field: "remark", label: msg`Note`, kind: "text" },
    { field: "weigh", label: msg`Weigh`, kind: "number", initial: 0 },
  ],
  schema: paperRowAdd,
};

export default paperRows;
