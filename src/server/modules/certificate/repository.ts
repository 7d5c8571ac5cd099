import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf, rowById } from "../../db/kysely.ts";
import type { MemberCertificate } from "../../../shared/certificate.ts";

/** The certificates' rows (issue.ts, routes.ts and the back office's resources call these). */

export interface TemplateRow {
  id: number;
  room_id: number | null;
  course_id: number | null;
  title: string;
  wording: string;
  signature: string;
  text_color: string;
  accent_color: string;
  status: string;
}

export interface CertificateRow {
  id: number;
  serial: string;
  user_id: number;
  room_id: number | null;
  course_id: number | null;
  attempt_id: number | null;
  title: string;
  member_name: string;
  wording: string;
  signature: string;
  text_color: string;
  accent_color: string;
  score: number | null;
  issued_at: number;
  revoked_at: number | null;
  revoked_by: number | null;
  revoked_reason: string;
}

const TEMPLATE_COLUMNS = ["id", "room_id", "course_id", "title", "wording", "signature", "text_color", "accent_color", "status"] as const;

/** The enabled template of a room or course, or undefined. */
export async function enabledTemplate(q: Queryable, target: { roomId: number } | { courseId: number }): Promise<TemplateRow | undefined> {
  let query = kyselyOf(q).selectFrom("certificate_template").select(TEMPLATE_COLUMNS).where("status", "=", "enable");
  query = "roomId" in target ? query.where("room_id", "=", target.roomId) : query.where("course_id", "=", target.courseId);
  return (await query.executeTakeFirst()) as TemplateRow | undefined;
}

/** A template by id, or undefined. */
export async function templateById(q: Queryable, id: number): Promise<TemplateRow | undefined> {
  return (await kyselyOf(q).selectFrom("certificate_template").select(TEMPLATE_COLUMNS).where("id", "=", id).executeTakeFirst()) as TemplateRow | undefined;
}

/** The name a certificate is issued to: the member's nickname, else the username. */
export async function memberName(q: Queryable, userId: number): Promise<string | undefined> {
  const row = await rowById(q, "member", ["username", "nickname"], userId);
  return row ? row.nickname.trim() || row.username : undefined;
}

/** The title of a room or course, or undefined. */
export async function targetTitle(q: Queryable, target: { roomId: number } | { courseId: number }): Promise<string | undefined> {
  const k = kyselyOf(q);
  const row = "roomId" in target
    ? await k.selectFrom("exam_room").select("title").where("id", "=", target.roomId).executeTakeFirst()
    : await k.selectFrom("course").select("title").where("id", "=", target.courseId).executeTakeFirst();
  return row?.title;
}

/** An official attempt's facts a certificate needs, or undefined. */
export async function attemptForCertificate(q: Queryable, attemptId: number) {
  return rowById(q, "exam_attempt", ["id", "user_id", "room_id", "kind", "status", "score", "passed", "needs_review"], attemptId);
}

/** Whether the member has another finished official attempt in the room that passed, graded for good. */
export async function otherPassedAttempt(q: Queryable, userId: number, roomId: number, exceptId: number): Promise<{ id: number; score: number | null } | undefined> {
  return kyselyOf(q)
    .selectFrom("exam_attempt")
    .select(["id", "score"])
    .where("user_id", "=", userId)
    .where("room_id", "=", roomId)
    .where("kind", "=", "official")
    .where("status", "<>", "open")
    .where("passed", "=", true)
    .where("needs_review", "=", false)
    .where("id", "<>", exceptId)
    .orderBy("id")
    .executeTakeFirst();
}

/** Whether every enabled lesson of the course (at least one) is completed by the member, who is enrolled in it. */
export async function courseCompleted(q: Queryable, userId: number, courseId: number): Promise<boolean> {
  const { rows } = await sql<{ done: boolean }>`select exists (select 1 from course_enrolment e where e.user_id = ${userId} and e.course_id = ${courseId})
      and exists (select 1 from lesson l where l.course_id = ${courseId} and l.status = 'enable')
      and not exists (
        select 1 from lesson l
        left join lesson_progress p on p.lesson_id = l.id and p.user_id = ${userId}
        where l.course_id = ${courseId} and l.status = 'enable' and coalesce(p.completed, false) = false
      ) as done`.execute(kyselyOf(q));
  return rows[0]?.done === true;
}

export type NewCertificate = Omit<CertificateRow, "id" | "revoked_at" | "revoked_by" | "revoked_reason"> & { template_id: number };

/** Inserts a certificate unless the member has one for that room or course: true when inserted (the serial is unique: a clash throws). */
export async function insertCertificate(q: Queryable, c: NewCertificate): Promise<boolean> {
  const k = kyselyOf(q);
  let query = k.insertInto("certificate").values(c);
  query = c.room_id !== null
    ? query.onConflict((oc) => oc.columns(["user_id", "room_id"]).where("room_id", "is not", null).doNothing())
    : query.onConflict((oc) => oc.columns(["user_id", "course_id"]).where("course_id", "is not", null).doNothing());
  return (await query.returning("id").executeTakeFirst()) !== undefined;
}

/** Whether a serial is taken. */
export async function serialTaken(q: Queryable, serial: string): Promise<boolean> {
  return (await kyselyOf(q).selectFrom("certificate").select("id").where("serial", "=", serial).executeTakeFirst()) !== undefined;
}

const CERTIFICATE_COLUMNS = ["id", "serial", "user_id", "room_id", "course_id", "attempt_id", "title", "member_name", "wording", "signature", "text_color", "accent_color", "score", "issued_at", "revoked_at", "revoked_by", "revoked_reason"] as const;

/** A certificate by serial, or undefined. */
export async function certificateBySerial(q: Queryable, serial: string): Promise<CertificateRow | undefined> {
  return (await kyselyOf(q).selectFrom("certificate").select(CERTIFICATE_COLUMNS).where("serial", "=", serial).executeTakeFirst()) as CertificateRow | undefined;
}

/** A certificate by id, or undefined. */
export async function certificateById(q: Queryable, id: number): Promise<CertificateRow | undefined> {
  return (await kyselyOf(q).selectFrom("certificate").select(CERTIFICATE_COLUMNS).where("id", "=", id).executeTakeFirst()) as CertificateRow | undefined;
}

/** The member's certificate of a room, or undefined. */
export async function certificateOfRoom(q: Queryable, userId: number, roomId: number): Promise<CertificateRow | undefined> {
  return (await kyselyOf(q).selectFrom("certificate").select(CERTIFICATE_COLUMNS).where("user_id", "=", userId).where("room_id", "=", roomId).forUpdate().executeTakeFirst()) as
    | CertificateRow
    | undefined;
}

/** The member's certificates, newest first. */
export async function certificatesOf(q: Queryable, userId: number): Promise<CertificateRow[]> {
  return (await kyselyOf(q).selectFrom("certificate").select(CERTIFICATE_COLUMNS).where("user_id", "=", userId).orderBy("issued_at", "desc").orderBy("id", "desc").execute()) as CertificateRow[];
}

/** The member's certificates as they see them (their list, their transcript). */
export async function memberCertificates(q: Queryable, userId: number): Promise<MemberCertificate[]> {
  return (await certificatesOf(q, userId)).map((c) => ({
    serial: c.serial,
    title: c.title,
    kind: c.room_id === null && c.course_id !== null ? "course" : "room",
    issuedAt: c.issued_at,
    score: c.score,
    revoked: c.revoked_at !== null,
  }));
}

/** Revokes a valid certificate: true when it was valid. */
export async function revokeCertificate(q: Queryable, id: number, at: number, by: number | null, reason: string): Promise<boolean> {
  const result = await kyselyOf(q)
    .updateTable("certificate")
    .set({ revoked_at: at, revoked_by: by, revoked_reason: reason })
    .where("id", "=", id)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Restores a certificate a regrade revoked (never one staff revoked), as it was issued. */
export async function restoreRegradeRevoked(q: Queryable, id: number): Promise<void> {
  await kyselyOf(q)
    .updateTable("certificate")
    .set({ revoked_at: null, revoked_by: null, revoked_reason: "" })
    .where("id", "=", id)
    .where("revoked_by", "is", null)
    .where("revoked_reason", "=", REGRADE_REASON)
    .execute();
}

/** The reason stored when a regrade to "failed" revokes a certificate (shown translated). */
export const REGRADE_REASON = "regrade";
