import { msg } from "@lingui/core/macro";
import type { CrudOption, CrudRow } from "../crud/types.ts";

export const STATUS_OPTIONS: CrudOption[] = [
  { value: "enable", label: msg`Enabled` },
  { value: "disable", label: msg`Disabled` },
];

export const ROW_KIND_OPTIONS: CrudOption[] = [
  { value: "fixed", label: msg`Fixed question` },
  { value: "draw", label: msg`Draw rule` },
];

/** The five graded kinds of question. */
export const QUESTION_TYPE_OPTIONS: CrudOption[] = [
  { value: "single", label: msg`Single choice` },
  { value: "multiple", label: msg`Multiple choice` },
  { value: "judge", label: msg`True or false` },
  { value: "fill", label: msg`Fill in the blanks` },
  { value: "short", label: msg`Short answer` },
];

export const REVIEW_POLICY_OPTIONS: CrudOption[] = [
  { value: "submitted", label: msg`After submission` },
  { value: "closed", label: msg`After the room closes` },
  { value: "never", label: msg`Never` },
];

export const LATE_POLICY_OPTIONS: CrudOption[] = [
  { value: "review", label: msg`Keep for a marker` },
  { value: "refuse", label: msg`Refuse` },
];

export const MARK_STATUS_OPTIONS: CrudOption[] = [
  { value: "pending", label: msg`Waiting` },
  { value: "marked", label: msg`Marked` },
];

export const LATE_STATUS_OPTIONS: CrudOption[] = [
  { value: "pending", label: msg`Waiting` },
  { value: "accepted", label: msg`Accepted` },
  { value: "rejected", label: msg`Rejected` },
];

export const DIFFICULTY_OPTIONS: CrudOption[] = [1, 2, 3, 4, 5].map((n) => ({ value: n, label: { id: String(n), message: String(n) } }));

/** A bank's title in the UI language (its English title in English, when it has one). */
export const bankTitle = (row: CrudRow, locale: string): string => String((locale === "en" && row.title_en) || row.title || row.id);

/** An attempt's face outcome. */
export const FACE_FLAG_OPTIONS: CrudOption[] = [
  { value: "none", label: msg`No problem` },
  { value: "flagged", label: msg`Flagged for review` },
  { value: "stopped", label: msg`Stopped` },
  { value: "reviewed", label: msg`Reviewed` },
];

/** The server's verdict on one face check. */
export const FACE_VERDICT_OPTIONS: CrudOption[] = [
  { value: "pass", label: msg({ message: "Passed", context: "face check verdict" }) },
  { value: "no_face", label: msg`No face` },
  { value: "many_faces", label: msg`Several faces` },
  { value: "mismatch", label: msg`Another person` },
  { value: "not_live", label: msg`Liveness failed` },
  { value: "no_reference", label: msg`No reference photo` },
  { value: "camera_refused", label: msg`Camera refused` },
  { value: "no_camera", label: msg`No camera` },
  { value: "camera_failed", label: msg`Camera failed` },
  { value: "bad_image", label: msg`Unreadable picture` },
  { value: "missed", label: msg`Missed check` },
];
