import { randomBytes } from "node:crypto";
import { fillWording, SERIAL_ALPHABET, SERIAL_LENGTH } from "../../../shared/certificate.ts";
import { dayIn } from "../../../shared/time.ts";
import type { Queryable } from "../../db/index.ts";
import {
  attemptForCertificate,
  certificateOfRoom,
  courseCompleted,
  enabledTemplate,
  insertCertificate,
  memberName,
  otherPassedAttempt,
  REGRADE_REASON,
  restoreRegradeRevoked,
  revokeCertificate,
  serialTaken,
  targetTitle,
} from "./repository.ts";

/**
 * Issuing certificates, in the caller's transaction, exactly once per member and room or course
 * (the table's unique indexes; a second issue is a no-op), and only when the room or course has
 * an enabled template. What the certificate says is fixed then (a snapshot).
 *
 * - An official attempt: `attemptGraded` runs whenever its grade is written once it is closed —
 *   on submit or expiry (exam/attempts/attempt.ts finish), a marker's mark (exam/attempts/marks.ts), a late answer's decision
 *   (exam/attempts/late.ts) and a regrade (exam/attempts/regrade.ts). It issues when the attempt has passed and nothing waits
 *   for a marker (a provisional pass issues nothing until marking settles it).
 * - A regrade (or a mark) that makes the attempt a certificate came from fail revokes the
 *   certificate, reason "regrade" and no admin, unless another finished attempt of the member in
 *   that room still passes: nothing is deleted, the verification page says it is revoked, and a
 *   later regrade back to passed restores it (never one staff revoked).
 * - A course: `lessonCompleted` after a lesson's progress is applied; issues once every enabled
 *   lesson of the course is completed by the enrolled member.
 */

/** A random serial of SERIAL_LENGTH characters (each byte's low 5 bits: 32 letters, no bias). */
export function newSerial(): string {
  return Array.from(randomBytes(SERIAL_LENGTH), (b) => SERIAL_ALPHABET[b & 31]).join("");
}

const today = () => dayIn(undefined)(Math.floor(Date.now() / 1000));

/** Formats a score for the wording and the PDF: up to 2 decimals, no trailing zeros. */
export const scoreText = (score: number | null) => (score === null ? "" : String(Math.round(score * 100) / 100));

async function issue(q: Queryable, userId: number, target: { roomId: number } | { courseId: number }, from: { attemptId: number; score: number | null } | null): Promise<boolean> {
  const template = await enabledTemplate(q, target);
  if (!template) return false;
  const name = await memberName(q, userId);
  const title = await targetTitle(q, target);
  if (name === undefined || title === undefined) return false;
  const issuedAt = Math.floor(Date.now() / 1000);
  const score = from?.score ?? null;
  let serial = newSerial();
  while (await serialTaken(q, serial)) serial = newSerial();
  return insertCertificate(q, {
    serial,
    user_id: userId,
    room_id: "roomId" in target ? target.roomId : null,
    course_id: "courseId" in target ? target.courseId : null,
    attempt_id: from?.attemptId ?? null,
    template_id: template.id,
    title: template.title,
    member_name: name,
    wording: fillWording(template.wording, { name, title, date: today(), score: scoreText(score) }),
    signature: template.signature,
    text_color: template.text_color,
    accent_color: template.accent_color,
    score,
    issued_at: issuedAt,
  });
}

/** After an attempt's grade was written (see above): issue, revoke or restore its room's certificate. */
export async function attemptGraded(q: Queryable, attemptId: number): Promise<void> {
  const a = await attemptForCertificate(q, attemptId);
  if (!a || a.kind !== "official" || a.room_id === null || a.status === "open") return;
  const existing = await certificateOfRoom(q, a.user_id, a.room_id);
  if (a.passed === true && !a.needs_review) {
    if (!existing) await issue(q, a.user_id, { roomId: a.room_id }, { attemptId: a.id, score: a.score === null ? null : Number(a.score) });
    else if (existing.revoked_at !== null) await restoreRegradeRevoked(q, existing.id);
    return;
  }
  if (a.passed === false && existing && existing.revoked_at === null && existing.attempt_id === a.id) {
    if (await otherPassedAttempt(q, a.user_id, a.room_id, a.id)) return;
    await revokeCertificate(q, existing.id, Math.floor(Date.now() / 1000), null, REGRADE_REASON);
  }
}

/** After a lesson's progress was applied for an enrolled member: the course's certificate once every lesson is completed. */
export async function lessonCompleted(q: Queryable, userId: number, courseId: number): Promise<void> {
  if (await courseCompleted(q, userId, courseId)) await issue(q, userId, { courseId }, null);
}
