import { msg } from "@lingui/core/macro";
import type { CrudFormField, CrudOption } from "../crud/types.ts";

/** What the data-security rules' forms share: a rule's status. */
export const statusOptions: CrudOption[] = [
  { value: "enable", label: msg`Enabled` },
  { value: "disable", label: msg`Disabled` },
];

export const statusField: CrudFormField = { field: "status", label: msg`Status`, kind: "radio", options: statusOptions, initial: "enable" };
