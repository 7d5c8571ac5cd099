import { msg } from "@lingui/core/macro";
import type { CrudOption, CrudRow } from "../crud/types.ts";

/** The five graded kinds of question. */
export const TYPE_OPTIONS: CrudOption[] = [
  { value: "single", label: msg`Single choice` },
  { value: "multiple", label: msg`Multiple choice` },
  { value: "judge", label: msg`True or false` },
  { value: "fill", label: msg`Fill in the blanks` },
  { value: "short", label: msg`Short answer` },
];

export const DIFFICULTY_OPTIONS: CrudOption[] = [1, 2, 3, 4, 5].map((n) => ({ value: n, label: { id: String(n), message: String(n) } }));

/** A bank's title in the UI language (its English title in English, when it has one). */
export const bankTitle = (row: CrudRow, locale: string): string => String((locale === "en" && row.title_en) || row.title || row.id);
