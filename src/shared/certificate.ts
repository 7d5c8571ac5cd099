/**
 * Certificates as both sides see them: the serial's alphabet and shape, the public
 * verification answer, the member's list, and how a template's wording is filled in.
 */

/** A serial's characters: digits and capitals without 0, 1, I and O (never misread). 32 of them: 5 bits each. */
export const SERIAL_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
/** Characters in a serial issued here (80 random bits). */
export const SERIAL_LENGTH = 16;
/** What a serial may look like (the database allows 12 to 32 of the alphabet). */
export const SERIAL_PATTERN = /^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{12,32}$/;

/** The public page's path of a serial. */
export const verifyPath = (serial: string) => `/verify/${serial}`;

/** `GET /api/certificate/verify/:serial`: only these four facts, nothing else about the member. */
export interface CertificateVerification {
  name: string;
  title: string;
  /** Issue date, "YYYY-MM-DD". */
  date: string;
  valid: boolean;
  /** When it was revoked ("YYYY-MM-DD"), or null. */
  revokedOn: string | null;
}

/** A row of `GET /api/certificate/list` (the member's own). */
export interface MemberCertificate {
  serial: string;
  title: string;
  /** The room or course it was issued for, as issued. */
  kind: "room" | "course";
  issuedAt: number;
  score: number | null;
  revoked: boolean;
}

/** The placeholders a template's wording may hold. */
export const WORDING_PLACEHOLDERS = ["{name}", "{title}", "{date}", "{score}"] as const;

/** A wording with its placeholders filled in ({title}: the room's or course's title; {score}: "" for a course). */
export function fillWording(wording: string, values: { name: string; title: string; date: string; score: string }): string {
  return wording.replace(/\{(name|title|date|score)\}/g, (_, key: keyof typeof values) => values[key]);
}
