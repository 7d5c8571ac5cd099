import { questionTypeEdit } from "../../../shared/admin/questions.ts";
import { questionTypeDecl } from "../../../shared/admin/resources/exam.ts";
import { declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";

/** Question types (`exam/questionType`): the five fixed kinds' names and default scores (edit only). */
const questionTypes: CrudDefinition = {
  ...declaredScreen(questionTypeDecl),
  buttons: ["refresh", "edit", "columns"],
  defaultOrder: "id,asc",
  form: declaredForm(questionTypeDecl, [
    { field: "title", kind: "text" },
    { field: "title_en", kind: "text" },
    { field: "default_score", kind: "number" },
  ]),
  schema: questionTypeEdit.omit({ id: true }),
};

export default questionTypes;
