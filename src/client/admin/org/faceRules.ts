import { msg } from "@lingui/core/macro";
import { faceRuleAdd } from "../../../shared/exam/face.ts";
import { FACE_ACTIONS, faceRuleDecl } from "../../../shared/admin/resources/face.ts";
import { declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition, CrudOption } from "../crud/types.ts";

export const FACE_ACTION_OPTIONS: CrudOption[] = [...FACE_ACTIONS];

/**
 * Face rules (`org/faceRule`): when an official exam checks the member's face (before
 * the start, every N minutes, K times at random), the similarity needed, liveness, and what M
 * failed checks do. Rooms choose a rule in their form.
 */
const faceRules: CrudDefinition = {
  ...declaredScreen(faceRuleDecl, {
    every_minutes: (r) => (Number(r.every_minutes) > 0 ? String(r.every_minutes) : "–"),
    random_count: (r) => (Number(r.random_count) > 0 ? String(r.random_count) : "–"),
  }),
  form: declaredForm(faceRuleDecl, [
    { field: "name", kind: "text" },
    { field: "before_start", label: msg`Check before the start`, kind: "switch", boolean: true, initial: true },
    { field: "every_minutes", label: msg`Check every N minutes (0: never)`, kind: "number", initial: 0 },
    { field: "random_count", label: msg`Check K times at random (0: never)`, kind: "number", initial: 0 },
    { field: "threshold", label: msg`Similarity needed (0 to 1)`, kind: "number", initial: 0.6, hint: msg`0.6 tells most people apart; higher is stricter` },
    { field: "liveness", label: msg`Require a liveness check`, kind: "switch", boolean: true, initial: false },
    { field: "max_failures", label: msg`Failed checks before the action (M)`, kind: "number", initial: 3 },
    { field: "action", label: msg`After M failed checks`, kind: "radio", initial: "flag" },
    { field: "status", kind: "radio", initial: "enable" },
  ]),
  schema: faceRuleAdd,
};

export default faceRules;
