import { msg } from "@lingui/core/macro";
import { questionTypeEdit } from "../../../shared/admin/questions.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { QUESTION_TYPE_OPTIONS } from "./options.ts";

/** Question types (`exam/questionType`): the five fixed kinds' names and default scores (edit only). */
const questionTypes: CrudDefinition = {
  path: "exam/questionType",
  title: msg`Question types`,
  buttons: ["refresh", "edit", "columns"],
  defaultOrder: "id,asc",
  columns: [
    { field: "type", label: msg`Question type`, render: "tag", options: QUESTION_TYPE_OPTIONS },
    { field: "title", label: msg`Title` },
    { field: "title_en", label: msg`English title` },
    { field: "default_score", label: msg`Default score`, render: "number" },
  ],
  form: [
    { field: "title", label: msg`Title`, kind: "text" },
    { field: "title_en", label: msg`English title`, kind: "text" },
    { field: "default_score", label: msg`Default score`, kind: "number" },
  ],
  schema: questionTypeEdit.omit({ id: true }),
};

export default questionTypes;
