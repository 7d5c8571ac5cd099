import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { certificateRevoke, certificateTemplateAdd, certificateTemplateEdit, certificateTemplatePreview, type CertificateTemplateAdd } from "../../../shared/admin/certificates.ts";
import { certificateDecl, certificateTemplateDecl } from "../../../shared/admin/resources/certificates.ts";
import { fillWording } from "../../../shared/certificate.ts";
import { dayIn } from "../../../shared/time.ts";
import { dbIdParam, withMessage } from "../../../shared/schema.ts";
import { ApiError } from "../../errors.ts";
import { certificatePdf, sendPdf } from "../../modules/certificate/content.ts";
import { certificateById, REGRADE_REASON, revokeCertificate } from "../../modules/certificate/repository.ts";
import type { CrudContext, ResourceDef, Row } from "../resource.ts";
import { usernameOf } from "./face.repository.ts";
import { otherTemplateOf, targetExists, targetTitles } from "./certificates.repository.ts";
import { addEditDelete, declared, joinById } from "./fields.ts";

/**
 * Certificate templates (`exam/certificateTemplate`: one per exam room or course, a preview of
 * the form's values as a PDF) and issued certificates (`exam/certificate`: search, download,
 * revoke with a reason, in the admin log). Issuing is modules/certificate/issue.ts.
 */

export const certificateTemplateResource: ResourceDef = {
  ...declared(certificateTemplateDecl, { room_title: "r.title", course_title: "c.title" }),
  table: "certificate_template",
  joins: [joinById("exam_room", "r", "t.room_id"), joinById("course", "c", "t.course_id")],
  editColumns: ["id", "room_id", "course_id", "title", "wording", "signature", "text_color", "accent_color", "status"],
  ...addEditDelete(certificateTemplateAdd, certificateTemplateEdit, { touch: true }),
  // Shared settings: a company admin reads them, never changes one.
  company: "read",
  hooks: {
    async beforeWrite(ctx, body, existing) {
      const { id: _id, ...data } = body as CertificateTemplateAdd & { id?: number };
      const target = data.room_id !== null ? { roomId: data.room_id } : { courseId: data.course_id! };
      if (!(await targetExists(ctx.tx, target))) throw new ApiError("roomId" in target ? msg`This exam room does not exist` : msg`This course does not exist`);
      if ((await otherTemplateOf(ctx.tx, target, existing ? Number(existing.id) : null)) !== undefined) {
        throw new ApiError("roomId" in target ? msg`This exam room already has a certificate template` : msg`This course already has a certificate template`);
      }
      return data;
    },
    async editRow(ctx, row) {
      return { ...row, ...(await targetTitles(ctx.tx, row.room_id as number | null, row.course_id as number | null)) };
    },
  },
  actions: {
    // The form's values (saved or not) as the PDF a member would get, with sample values.
    preview: {
      method: "GET",
      input: certificateTemplatePreview,
      rule: "exam/certificateTemplate/index",
      run: async () => null,
      async send(ctx, input, reply) {
        const form = input as z.infer<typeof certificateTemplatePreview>;
        const name = ctx.req.t(msg`Sample Member`);
        const now = Math.floor(Date.now() / 1000);
        const bytes = await certificatePdf(ctx.req, {
          serial: "SAMPLE2345SAMPLE",
          title: form.title,
          member_name: name,
          wording: fillWording(form.wording, { name, title: ctx.req.t(msg`Sample exam room`), date: dayIn(undefined)(now), score: "90" }),
          signature: form.signature,
          text_color: form.text_color,
          accent_color: form.accent_color,
          score: 90,
          issued_at: now,
        });
        return sendPdf(reply, "preview", bytes, false);
      },
    },
  },
};

/** A revocation's reason as staff read it: a regrade's in their language. */
const reasonText = (ctx: CrudContext, r: Row) => (r.revoked_reason === REGRADE_REASON && r.revoked_at !== null ? ctx.req.t(msg`A regrade made the attempt fail`) : r.revoked_reason);

const certificateId = z.object({ id: withMessage(dbIdParam, msg`Please choose a certificate`) });

export const certificateResource: ResourceDef = {
  ...declared(certificateDecl, {
    username: "m.username",
    room_title: "r.title",
    course_title: "c.title",
  }),
  // A view of `certificate` with each row's state (migration 0053); revoking writes the table.
  table: "certificate_row",
  joins: [joinById("member", "m", "t.user_id"), joinById("exam_room", "r", "t.room_id"), joinById("course", "c", "t.course_id")],
  defaultOrder: ["id", "desc"],
  editColumns: ["id", "serial", "user_id", "member_name", "title", "room_id", "course_id", "score", "issued_at", "revoked_at", "revoked_reason"],
  rules: { edit: "exam/certificate/index" },
  // A company admin sees and revokes only their company's members' certificates.
  company: { column: "m.company_id" },
  hooks: {
    async listRows(ctx, rows) {
      return rows.map((r) => ({ ...r, revoked_reason: reasonText(ctx, r) }));
    },
    // The row of `GET edit` names its member, as the list does.
    async editRow(ctx, row) {
      return { ...row, username: (await usernameOf(ctx.tx, row.user_id)) ?? "", revoked_reason: reasonText(ctx, row) };
    },
  },
  actions: {
    revoke: {
      method: "POST",
      input: certificateRevoke,
      done: msg`The certificate is revoked`,
      async run(ctx, input) {
        const { id, reason } = input as z.infer<typeof certificateRevoke>;
        const c = await certificateById(ctx.tx, id);
        if (!c) throw new ApiError(msg`This certificate does not exist`);
        if (!(await revokeCertificate(ctx.tx, id, Math.floor(Date.now() / 1000), ctx.admin.id, reason))) throw new ApiError(msg`This certificate is already revoked`);
        return { id, state: "revoked" } satisfies Row;
      },
    },
    download: {
      method: "GET",
      input: certificateId,
      rule: "exam/certificate/index",
      run: async () => null,
      async send(ctx, input, reply) {
        const c = await certificateById(ctx.tx, (input as { id: number }).id);
        if (!c) throw new ApiError(msg`This certificate does not exist`);
        return sendPdf(reply, c.serial, await certificatePdf(ctx.req, c));
      },
    },
  },
};
