import { createHash, randomBytes } from "node:crypto";
import type { MessageDescriptor } from "@lingui/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { msg, plural } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { jsonBody } from "../../../shared/schema.ts";
import { validatePassword } from "../../../shared/validation.ts";
import { clearLoginFailures } from "../../auth/login.ts";
import { hashPassword } from "../../auth/password.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { deleteMemberSessions, setPasswordHash } from "../account/repository.ts";
import { getSettings } from "../../settings.ts";
import { addDeliveries, sendEach, type Delivery, type OutgoingMessage } from "../../auth/senders.ts";
import { inviteesOf, insertInvitations, openInvitation, spendInvitation } from "./invitation.repository.ts";

/**
 * Invitations: a member staff created (one by one or by import) gets an email with a link to
 * set their first password, no captcha and no code: the link itself is the proof. A member with
 * no email gets it by text message to their mobile when an SMS provider is set (routine/sms.ts);
 * with neither, staff are told it cannot be delivered (`invitationChannel`, `undeliverable`). The link is
 * single use, expires after INVITATION_TTL_SECONDS, and a newer invitation closes the older
 * ones. Only the token's SHA-256 is stored; the token is in the email and nowhere else (not in
 * the admin log, not in the server log, not in any answer).
 */

/** The password hash of a member who has none yet (invited): no password verifies against it. */
export const NO_PASSWORD_HASH = "!invited";

/** How long an invitation link works. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;
/** The member-side page the link opens (src/client/app/router.tsx). */
export const INVITATION_PATH = "/invitation";

/** How an invitation reaches a member: their email, else a text message to their mobile. */
export type InvitationChannel = "email" | "mobile";
interface Contact {
  email?: string | null;
  mobile?: string | null;
}

/**
 * The channel an invitation to a member with these contacts takes: the email when there is one,
 * else the mobile when an SMS provider is set (`smsProviderSet`); null when it cannot be delivered.
 */
export function invitationChannel(contact: Contact, smsSet: boolean): InvitationChannel | null {
  if (contact.email) return "email";
  if (contact.mobile && smsSet) return "mobile";
  return null;
}

/** Why an invitation cannot reach a member with these contacts (`invitationChannel` gave null). */
export function undeliverable(contact: Contact): MessageDescriptor {
  return contact.mobile
    ? msg`The invitation cannot be delivered: there is no email, and no SMS provider is set to text the mobile`
    : msg`The invitation cannot be delivered: there is neither an email nor a mobile`;
}

const now = () => Math.floor(Date.now() / 1000);
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface Invitation {
  userId: number;
  token: string;
}

/** Opens an invitation for each member, in the caller's transaction: their tokens, to send once it has committed. */
export async function createInvitations(tx: Queryable, userIds: readonly number[]): Promise<Invitation[]> {
  const unique = [...new Set(userIds)];
  const list = unique.map((userId) => ({ userId, token: randomBytes(32).toString("base64url") }));
  const t0 = now();
  await insertInvitations(
    tx,
    list.map((i) => ({ userId: i.userId, tokenHash: hashToken(i.token) })),
    t0,
    t0 + INVITATION_TTL_SECONDS,
  );
  return list;
}

/** Invitations opened per transaction by `inviteAfterCommit`. */
export const INVITATION_CHUNK = 1000;

/**
 * Opens and sends invitations for members already committed (an import's thousands): each chunk
 * of INVITATION_CHUNK in its own short transaction, then sent, so the database answers others
 * in between and the members' own transaction stays short. A chunk that fails stops the rest
 * (logged; staff send those from the member list); answers how many were sent, and how many
 * only kept in the outbox table (no mail server or SMS provider is set).
 */
export async function inviteAfterCommit(app: FastifyInstance, req: FastifyRequest, userIds: readonly number[]): Promise<Delivery> {
  const unique = [...new Set(userIds)];
  let done: Delivery = { sent: 0, kept: 0 };
  for (let i = 0; i < unique.length; i += INVITATION_CHUNK) {
    const chunk = unique.slice(i, i + INVITATION_CHUNK);
    let invitations: Invitation[];
    try {
      invitations = await app.db.transaction((tx) => createInvitations(tx, chunk));
    } catch (error) {
      req.log.warn({ err: { code: (error as { code?: unknown }).code }, members: unique.length - i }, "invitations not opened: staff can send them from the member list");
      break;
    }
    done = addDeliveries(done, await sendInvitations(app, req, invitations));
  }
  return done;
}

/** The address the admin reached the server by: the link in the email opens the same site. */
export function siteOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/**
 * Sends the invitations (after their transaction committed: a message is not undone by a
 * rollback): by email, or by text message to a member with a mobile and no email (through the
 * SMS provider; should it have been switched off since, the outbox table keeps it as it keeps
 * codes). A failure of one does not stop the others; answers how many were sent, and how many
 * only kept in the outbox table (no mail server or SMS provider is set: nothing left the server).
 */
export async function sendInvitations(app: FastifyInstance, req: FastifyRequest, invitations: readonly Invitation[]): Promise<Delivery> {
  if (invitations.length === 0) return { sent: 0, kept: 0 };
  const people = new Map((await inviteesOf(app.db, invitations.map((i) => i.userId))).map((m) => [m.id, m]));
  const { site_name } = await getSettings(app.db, ["site_name"]);
  const site = site_name || app.config.siteName;
  const origin = siteOrigin(req);
  const t = req.t;
  const days = INVITATION_TTL_SECONDS / 86400;
  const messages: (OutgoingMessage & { member: number })[] = [];
  for (const invitation of invitations) {
    const member = people.get(invitation.userId);
    if (!member) continue;
    const name = member.nickname || member.username;
    const username = member.username;
    const link = invitationLink(origin, invitation.token);
    if (!member.email) {
      if (!member.mobile) continue;
      messages.push({
        member: member.id,
        channel: "mobile",
        target: member.mobile,
        subject: t(msg`You are invited to ${site}`),
        body: t(msg`${site}: an account was made for you (username: ${username}). Set your password with this link, once, within ${plural(days, { one: "# day", other: "# days" })}: ${link}`),
        secret: true,
      });
      continue;
    }
    messages.push({
      member: member.id,
      channel: "email",
      target: member.email,
      subject: t(msg`You are invited to ${site}`),
      body: t(
        msg`Hello ${name}, an account was made for you on ${site} (username: ${username}). Open this link to set your password: ${link} It works once, for ${plural(days, { one: "# day", other: "# days" })}.`,
      ),
      secret: true,
    });
  }
  // All at once: without a mail server they are written to the outbox in a few statements.
  return sendEach(app.sender, messages, (message, error) => {
    // The mail server's words may name hosts and users: logged without the message itself.
    req.log.warn({ err: { code: (error as { code?: unknown }).code }, channel: message.channel, member: (message as { member?: number }).member }, "invitation not sent");
  });
}

/**
 * The link in the invitation: the token is in the fragment, which browsers never send to a
 * server (not in its log, not in a Referer); the page reads it and posts it.
 */
export function invitationLink(origin: string, token: string): string {
  return `${origin}${INVITATION_PATH}#token=${token}`;
}

const EXPIRED = msg`This invitation link has expired or has already been used: ask the staff who invited you to send a new one`;
const tokenField = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/);

/**
 * `POST /api/user/invitation/check` and `POST /api/user/invitation`: the member side of an
 * invitation (public: the token is the proof). The token travels only in request bodies, never in
 * a URL the server logs: the link carries it in its fragment (`invitationLink`).
 */
export async function invitationRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const limit = { max: 20, timeWindow: "1 minute" };

  const check = jsonBody(z.object({ token: z.string().max(200) }));
  api.post("/api/user/invitation/check", { config: { auth: "public", rateLimit: limit }, schema: { body: check } }, async (req, reply) => {
    const token = tokenField.safeParse(req.body.token);
    const open = token.success ? await openInvitation(app.db, hashToken(token.data), now()) : undefined;
    if (!open) throw new ApiError(EXPIRED);
    return reply.success({ username: open.username, nickname: open.nickname });
  });

  const body = jsonBody(z.object({ token: z.string().max(200), password: z.string().max(64) }));
  api.post("/api/user/invitation", { config: { auth: "public", rateLimit: limit }, schema: { body } }, async (req, reply) => {
    const { token, password } = req.body;
    const invalid = validatePassword(password);
    if (invalid) throw new ApiError(invalid, 0, { fields: { password: req.t(invalid) } });
    const parsed = tokenField.safeParse(token);
    if (!parsed.success) throw new ApiError(EXPIRED);
    const hash = await hashPassword(password);
    const username = await app.db.transaction(async (tx) => {
      const t0 = now();
      const open = await openInvitation(tx, hashToken(parsed.data), t0, true);
      if (!open) throw new ApiError(EXPIRED);
      await spendInvitation(tx, open.id, t0);
      await setPasswordHash(tx, open.user_id, hash, true);
      await clearLoginFailures(tx, "member", open.username);
      await deleteMemberSessions(tx, open.user_id);
      return open.username;
    });
    return reply.success({ username }, msg`Your password is set: please log in`);
  });
}
