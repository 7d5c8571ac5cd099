import { msg } from "@lingui/core/macro";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { verifyPath } from "../../../shared/certificate.ts";
import { dayIn } from "../../../shared/time.ts";
import { siteOrigin } from "../user/invitation.ts";
import { scoreText } from "./issue.ts";
import { renderCertificate } from "./pdf.ts";
import type { CertificateRow } from "./repository.ts";

/** What the PDF of a certificate (or a template's preview) is drawn from: the issued row's snapshot. */
export type Printable = Pick<CertificateRow, "serial" | "title" | "member_name" | "wording" | "signature" | "text_color" | "accent_color" | "score" | "issued_at">;

/** The signature image's bytes, read through the server's own `/storage/` route (local folder or S3 alike); null when it cannot be read. */
async function signatureBytes(app: FastifyInstance, url: string): Promise<Uint8Array | null> {
  if (!url.startsWith("/storage/")) return null;
  const res = await app.inject({ method: "GET", url });
  return res.statusCode === 200 ? res.rawPayload : null;
}

/** The certificate's PDF, its labels in the reader's language, its QR code the absolute URL of the verification page. */
export async function certificatePdf(req: FastifyRequest, c: Printable): Promise<Uint8Array> {
  const date = dayIn(undefined)(c.issued_at);
  const url = `${siteOrigin(req)}${verifyPath(c.serial)}`;
  const details = [req.t(msg`Issued on ${date}`)];
  if (c.score !== null) details.push(req.t(msg`Score: ${scoreText(c.score)}`));
  details.push(req.t(msg`Certificate number: ${c.serial}`));
  return renderCertificate({
    title: c.title,
    memberName: c.member_name,
    wording: c.wording,
    details,
    textColor: c.text_color,
    accentColor: c.accent_color,
    signature: await signatureBytes(req.server, c.signature),
    verifyUrl: url,
    verifyCaption: req.t(msg`Scan to check this certificate`),
  });
}

/** Sends PDF bytes as a download named after the serial, never cached by a shared cache. */
export function sendPdf(reply: FastifyReply, serial: string, bytes: Uint8Array, download = true): FastifyReply {
  return reply
    .header("content-type", "application/pdf")
    .header("content-disposition", `${download ? "attachment" : "inline"}; filename="certificate-${serial}.pdf"`)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(Buffer.from(bytes));
}
