import type { CertificateRow, MemberDb } from "../db.ts";

/** Certificates the member downloaded on this device: kept with their PDFs, so they open offline. */

export async function saveCertificate(db: MemberDb, row: CertificateRow): Promise<void> {
  await db.certificates.put(row);
}

/** The stored PDF of a certificate, or undefined when it was never downloaded here. */
export async function storedCertificatePdf(db: MemberDb, serial: string): Promise<ArrayBuffer | undefined> {
  return (await db.certificates.get(serial))?.pdf;
}

/** The downloaded certificates, newest first, without their PDFs. */
export async function storedCertificates(db: MemberDb): Promise<Omit<CertificateRow, "pdf">[]> {
  return (await db.certificates.orderBy("issuedAt").reverse().toArray()).map(({ pdf: _pdf, ...rest }) => rest);
}
