import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { dbId, safeText, withMessage } from "../schema.ts";

/**
 * Certificate templates (exam/certificateTemplate) and certificates (exam/certificate) of the back
 * office: a template is for one exam room or one course; colours are "#rrggbb".
 */

const status = withMessage(z.enum(["enable", "disable"]).optional().default("enable"), msg`Please choose a status`);
const optionalId = (message: Parameters<typeof withMessage>[1]) => withMessage(z.preprocess((v) => (v === 0 || v === "" ? null : v), dbId.nullable().optional().default(null)), message);
const colour = (message: Parameters<typeof withMessage>[1]) =>
  withMessage(z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.string().regex(/^#[0-9a-f]{6}$/)), message);
/** "" (none) or a stored file's `/storage/...` path. */
const signature = withMessage(
  safeText(500).refine((url) => url === "" || (/^\/storage\/[A-Za-z0-9_./-]+\.(png|jpe?g)$/i.test(url) && !url.split("/").includes(".."))).optional().default(""),
  msg`Please upload the signature as a PNG or JPEG image`,
);

const templateBase = z.object({
  room_id: optionalId(msg`Choose one exam room or one course`),
  course_id: optionalId(msg`Choose one exam room or one course`),
  title: withMessage(safeText(100).trim().min(1), msg`Please enter the title (at most 100 characters)`),
  wording: withMessage(safeText(1000).optional().default(""), msg`The wording is at most 1000 characters`),
  signature,
  text_color: colour(msg`The text colour is a colour like #1f2937`),
  accent_color: colour(msg`The accent colour is a colour like #1d4ed8`),
  status,
});
/** Exactly one of room and course. */
function oneTarget(row: z.infer<typeof templateBase>, ctx: z.RefinementCtx) {
  if ((row.room_id === null) === (row.course_id === null)) ctx.addIssue({ code: "custom", path: ["room_id"], message: "one of room and course" });
}
export const certificateTemplateAdd = templateBase.superRefine(oneTarget);
export const certificateTemplateEdit = templateBase.extend({ id: withMessage(dbId, msg`Please choose a row`) }).superRefine(oneTarget);
export type CertificateTemplateAdd = z.infer<typeof certificateTemplateAdd>;

/** `POST /admin/exam/certificateTemplate/preview`: the form's values (not saved) rendered with sample values. */
export const certificateTemplatePreview = templateBase.omit({ status: true, room_id: true, course_id: true });

/** `POST /admin/exam/certificate/revoke {id, reason}`. */
export const certificateRevoke = z.object({
  id: withMessage(dbId, msg`Please choose a certificate`),
  reason: withMessage(safeText(200).trim().min(1), msg`Please give the reason (at most 200 characters)`),
});
