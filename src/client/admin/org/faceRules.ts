import { msg } from "@lingui/core/macro";
import { faceRuleAdd } from "../../../shared/exam/face.ts";
import type { CrudDefinition, CrudOption } from "../crud/types.ts";
import { STATUS_OPTIONS } from "../exam/options.ts";

export const FACE_ACTION_OPTIONS: CrudOption[] = [
  { value: "stop", label: msg`Stop the attempt` },
  { value: "flag", label: msg`Flag it for review` },
];

/**
 * Face rules (`org/faceRule`): when an official exam checks the member's face (before
 * the start, every N minutes, K times at random), the similarity needed, liveness, and what M
 * failed checks do. Rooms choose a rule in their form.
 */
const faceRules: CrudDefinition = {
  path: "org/faceRule",
  title: msg`Face rules`,
  quickSearch: msg`ID, name`,
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "name", label: msg`Name`, search: "text", sortable: true },
    { field: "before_start", label: msg`Before the start`, render: "switch" },
    { field: "every_minutes", label: msg`Every (minutes)`, cell: (r) => (Number(r.every_minutes) > 0 ? String(r.every_minutes) : "–") },
    { field: "random_count", label: msg`At random (times)`, cell: (r) => (Number(r.random_count) > 0 ? String(r.random_count) : "–") },
    { field: "threshold", label: msg`Similarity needed`, render: "number" },
    { field: "liveness", label: msg`Liveness`, render: "switch" },
    { field: "max_failures", label: msg`Failures allowed`, render: "number" },
    { field: "action", label: msg`Then`, render: "tag", options: FACE_ACTION_OPTIONS, search: "select" },
    { field: "rooms", viaHook: true, label: msg`Rooms`, render: "number" },
    { field: "status", label: msg`Status`, render: "tag", options: STATUS_OPTIONS, search: "select" },
  ],
  form: [
    { field: "name", label: msg`Name`, kind: "text" },
    { field: "before_start", label: msg`Check before the start`, kind: "switch", boolean: true, initial: true },
    { field: "every_minutes", label: msg`Check every N minutes (0: never)`, kind: "number", initial: 0 },
    { field: "random_count", label: msg`Check K times at random (0: never)`, kind: "number", initial: 0 },
    { field: "threshold", label: msg`Similarity needed (0 to 1)`, kind: "number", initial: 0.6, hint: msg`0.6 tells most people apart; higher is stricter` },
    { field: "liveness", label: msg`Require a liveness check`, kind: "switch", boolean: true, initial: false },
    { field: "max_failures", label: msg`Failed checks before the action (M)`, kind: "number", initial: 3 },
    { field: "action", label: msg`After M failed checks`, kind: "radio", options: FACE_ACTION_OPTIONS, initial: "flag" },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: faceRuleAdd,
};

export default faceRules;
