import { msg } from "@lingui/core/macro";
import { certificateTemplateAdd, certificateTemplateEdit } from "../../../shared/admin/certificates.ts";
import { certificateTemplateDecl } from "../../../shared/admin/resources/certificates.ts";
import { declaredForm, declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { CertificatePreview } from "./CertificateDialogs.tsx";

/**
 * Certificate templates (exam/certificateTemplate): one per exam room or course; the title, the
 * wording with its placeholders, a signature image, the colours; "Preview the PDF" renders the
 * form's values with sample ones.
 */
const certificateTemplates: CrudDefinition = {
  ...declaredScreen(certificateTemplateDecl, {
    room_title: (r) => String(r.room_title || "–"),
    course_title: (r) => String(r.course_title || "–"),
  }),
  form: declaredForm(certificateTemplateDecl, [
    { field: "room_id", kind: "remoteSelect", remote: { path: "exam/room", labelField: "title", rowLabel: "room_title" }, hint: msg`An exam room or a course: choose one of them` },
    { field: "course_id", kind: "remoteSelect", remote: { path: "course/course", labelField: "title", rowLabel: "course_title" } },
    { field: "title", kind: "text" },
    {
      field: "wording",
      label: msg`Wording`,
      kind: "textarea",
      initial: "",
      // Quoted: literal braces, not message placeholders.
      hint: msg`'{name}': the member's name, '{title}': the room's or course's title, '{date}': the day it is issued, '{score}': the exam score`,
    },
    { field: "signature", label: msg`Signature image (PNG or JPEG)`, kind: "image", topic: "certificate" },
    { field: "text_color", kind: "text", initial: "#1f2937" },
    { field: "accent_color", kind: "text", initial: "#1d4ed8" },
    { field: "status", kind: "radio", initial: "enable" },
    { field: "preview", display: true, label: msg`Preview`, kind: "custom", component: CertificatePreview },
  ]),
  schema: certificateTemplateAdd,
  editSchema: certificateTemplateEdit,
};

export default certificateTemplates;
