import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { paperRowAdd } from "../../../shared/admin/papers.ts";
import { paperRowDecl } from "../../../shared/admin/resources/exam.ts";
import { declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition, CrudRow } from "../crud/types.ts";
import { DIFFICULTY_OPTIONS, QUESTION_TYPE_OPTIONS } from "./options.ts";
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
  ...declaredScreen(paperRowDecl, {
    paper_id: (r) => String(r.paper_title ?? r.paper_id),
    question_stem: (r) => String(r.question_stem ?? "–"),
    question_version: versionCell,
    classify_title: (r) => String(r.classify_title ?? "–"),
    difficulty: difficultyCell,
  }),
  form: declaredForm(paperRowDecl, [
    { field: "paper_id", kind: "remoteSelect", remote: { path: "exam/paper", labelField: "title" } },
    { field: "kind", kind: "radio", initial: "fixed" },
    { field: "question_id", kind: "remoteSelect", remote: { path: "exam/question", labelField: "stem" }, when: (v) => v.kind === "fixed" },
    {
      field: "question_version",
      kind: "custom",
      component: PinnedVersionField,
      initial: null,
      hint: msg`Pin a version to keep this paper on it when the question is edited`,
      when: (v) => v.kind === "fixed",
    },
    { field: "classify_id", kind: "remoteSelect", remote: { path: "exam/classify", labelField: "title" }, when: (v) => v.kind === "draw" },
    { field: "question_type", label: msg`Question type`, kind: "select", options: QUESTION_TYPE_OPTIONS, when: (v) => v.kind === "draw" },
    {
      field: "difficulty",
      kind: "select",
      options: DIFFICULTY_OPTIONS,
      placeholder: msg`Any difficulty`,
      hint: msg`Draw only questions of this difficulty; "Any difficulty" draws from all of them`,
      when: (v) => v.kind === "draw",
    },
    { field: "count", kind: "number", initial: 1, when: (v) => v.kind === "draw" },
    { field: "score", kind: "number", initial: 1 },
    { field: "remark", kind: "text" },
    { field: "weigh", kind: "number", initial: 0 },
  ]),
  schema: paperRowAdd,
};

export default paperRows;
