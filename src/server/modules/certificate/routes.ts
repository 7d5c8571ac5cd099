import { msg } from "@lingui/core/macro";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { SERIAL_PATTERN, type CertificateVerification, type MemberCertificate } from "../../../shared/certificate.ts";
import { dayIn } from "../../../shared/time.ts";
import { ApiError } from "../../errors.ts";
import { certificatePdf, sendPdf } from "./content.ts";
import { certificateBySerial, memberCertificates } from "./repository.ts";

const UNKNOWN = msg`No certificate has this number`;
/** A serial as typed or scanned (case and spaces forgiven), or null when it cannot be one. */
const serialOf = (value: string): string | null => {
  const s = value.trim().toUpperCase();
  return SERIAL_PATTERN.test(s) ? s : null;
};
const serialParam = z.string().max(200);

/**
 * Certificates on the member side: `GET /api/certificate/verify/:serial` (public: the name, the
 * title, the date and whether it is valid, nothing else), `GET /api/certificate/list` and
 * `GET /api/certificate/download?serial=` (the member's own only; a revoked one is not served).
 */
export async function certificateRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/certificate/verify/:serial",
    { config: { auth: "public", rateLimit: { max: 60, timeWindow: "1 minute" } }, schema: { params: z.object({ serial: serialParam }) } },
    async (req, reply) => {
      const serial = serialOf(req.params.serial);
      const c = serial ? await certificateBySerial(db, serial) : undefined;
      if (!c) throw new ApiError(UNKNOWN);
      const day = dayIn(undefined);
      return reply.success<CertificateVerification>({
        name: c.member_name,
        title: c.title,
        date: day(c.issued_at),
        valid: c.revoked_at === null,
        revokedOn: c.revoked_at === null ? null : day(c.revoked_at),
      });
    },
  );

  api.get("/api/certificate/list", { config: { auth: "member" } }, async (req, reply) => {
    return reply.success<{ list: MemberCertificate[] }>({ list: await memberCertificates(db, req.member!.id) });
  });

  api.get("/api/certificate/download", { config: { auth: "member" }, schema: { querystring: z.object({ serial: serialParam }) } }, async (req, reply) => {
    const serial = serialOf(req.query.serial);
    const c = serial ? await certificateBySerial(db, serial) : undefined;
    // Another member's certificate is answered as an unknown one.
    if (!c || c.user_id !== req.member!.id) throw new ApiError(UNKNOWN);
    if (c.revoked_at !== null) throw new ApiError(msg`This certificate has been revoked`);
    return sendPdf(reply, c.serial, await certificatePdf(req, c));
  });
}
