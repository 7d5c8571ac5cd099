import { msg } from "@lingui/core/macro";
import type { CrudOption } from "../crud/types.ts";

export const STATUS_OPTIONS: CrudOption[] = [
  { value: "enable", label: msg`Enabled` },
  { value: "disable", label: msg`Disabled` },
];

export const GENDER_OPTIONS: CrudOption[] = [
  { value: 0, label: msg`Unknown` },
  { value: 1, label: msg`Male` },
  { value: 2, label: msg`Female` },
];
