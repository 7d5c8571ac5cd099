import { msg } from "@lingui/core/macro";
import { LATE_POLICIES, LATE_STATUSES, MARK_STATUSES, QUESTION_TYPES, REVIEW_POLICIES, ROW_KINDS } from "../../../shared/admin/resources/exam.ts";
import { FACE_FLAGS } from "../../../shared/admin/resources/face.ts";
import type { CrudOption, CrudRow } from "../crud/types.ts";

export const STATUS_OPTIONS: CrudOption[] = [
  { value: "enable", label: msg`Enabled` },
  { value: "disable", label: msg`Disabled` },
];

export const ROW_KIND_OPTIONS: CrudOption[] = [...ROW_KINDS];

export const QUESTION_TYPE_OPTIONS: CrudOption[] = [...QUESTION_TYPES];

export const REVIEW_POLICY_OPTIONS: CrudOption[] = [...REVIEW_POLICIES];

export const LATE_POLICY_OPTIONS: CrudOption[] = [...LATE_POLICIES];

export const MARK_STATUS_OPTIONS: CrudOption[] = [...MARK_STATUSES];

export const LATE_STATUS_OPTIONS: CrudOption[] = [...LATE_STATUSES];

export const DIFFICULTY_OPTIONS: CrudOption[] = [1, 2, 3, 4, 5].map((n) => ({ value: n, label: { id: String(n), message: String(n) } }));

/** A bank's title in the UI language (its English title in English, when it has one). */
export const bankTitle = (row: CrudRow, locale: string): string => String((locale === "en" && row.title_en) || row.title || row.id);

export const FACE_FLAG_OPTIONS: CrudOption[] = [...FACE_FLAGS];

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
