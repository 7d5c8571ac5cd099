import { msg } from "@lingui/core/macro";
import type { CrudOption, CrudRow } from "../crud/types.ts";

/** Enabled / disabled, the status of admins, groups and rules. */
export const STATUS_OPTIONS: CrudOption[] = [
  { value: "enable", label: msg`Enabled` },
  { value: "disable", label: msg`Disabled` },
];

/** A rule's title in the UI language (its English title in English, when it has one). */
export const ruleTitle = (row: CrudRow, locale: string): string => String((locale === "en" && row.title_en) || row.title || row.name || row.id);
