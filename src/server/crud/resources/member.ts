import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { memberAdd, memberEdit, type MemberAdd } from "../../../shared/admin/schemas.ts";
import { dbId, withMessage } from "../../../shared/schema.ts";
import { ApiError } from "../../errors.ts";
import { smsProviderSet } from "../../modules/routine/sms.ts";
import { NO_PASSWORD_HASH, createInvitations, invitationChannel, inviteAfterCommit, sendInvitations, undeliverable, type Invitation, type InvitationChannel } from "../../modules/user/invitation.ts";
import type { ExtraAction, ResourceDef } from "../resource.ts";
import { memberDecl } from "../../../shared/admin/resources/user.ts";
import { withPassword } from "./accounts.ts";
import { requireInScope } from "../scope.ts";
import { memberFaceAction } from "./face.ts";
import { endAllSessions } from "./permissions.ts";
import { classroomResource } from "./org.ts";
import { addEditDelete, declared, joinById } from "./fields.ts";
import { classroomIdsOfMember, setMemberClassrooms } from "./member.repository.ts";
import { memberSheetActions } from "./memberSheet.ts";
import { inviteesOf } from "../../modules/user/invitation.repository.ts";

/**
 * `POST invite {id}`: sends the member a new invitation link (older links stop working), by email,
 * or by text message to a member with a mobile and no email when an SMS provider is set.
 */
const inviteAction: ExtraAction = {
  method: "POST",
  input: z.object({ id: withMessage(dbId, msg`Please choose a row`) }),
  done: msg`The invitation was sent`,
  async run(ctx, input) {
    const { id } = input as { id: number };
    const [member] = await inviteesOf(ctx.tx, [id]);
    if (!member) throw new ApiError(msg`The row does not exist`);
    const channel = invitationChannel(member, await smsProviderSet(ctx.tx));
    if (channel === null) throw new ApiError(undeliverable(member));
    if (member.status !== "enable") throw new ApiError(msg`The member is disabled: enable them before sending an invitation`);
    return { channel, invitations: await createInvitations(ctx.tx, [id]) };
  },
  async committed(app, req, result) {
    const { channel, invitations } = result as { channel: InvitationChannel; invitations: Invitation[] };
    // `kept`: no mail server or SMS provider is set, and it only reached the outbox table (the dialog says so).
    const { sent, kept } = await sendInvitations(app, req, invitations);
    if (sent + kept === 0) {
      throw new ApiError(channel === "mobile" ? msg`The invitation could not be sent: please check the SMS settings` : msg`The invitation could not be sent: please check the mail settings`);
    }
    return { sent, kept };
  },
};

/** Members (`/admin/user/user/...`): profile, group, status, password reset; never the password hash. */
export const memberResource: ResourceDef = {
  ...declared(memberDecl, { group_name: "g.name", company_name: "c.name", duty_name: "d.name" }),
  table: "member",
  joins: [joinById("user_group", "g", "t.group_id"), joinById("company", "c", "t.company_id"), joinById("duty", "d", "t.duty_id")],
  selectFields: ["id", "username", "nickname"],
  editColumns: ["id", "username", "nickname", "email", "mobile", "avatar", "gender", "birthday", "money", "score", "motto", "group_id", "company_id", "duty_id", "status", "last_login_time", "join_time", "create_time", "update_time"],
  ...addEditDelete(memberAdd, memberEdit, { touch: true }),
  company: { column: "t.company_id", fill: "company_id" },
  // The total of a list by company (a company admin's: their companies) and status is a sum of
  // the figures the database keeps (migration 0060), not a count of every member.
  counted: { table: "member_count", columns: ["company_id", "status"] },
  hooks: {
    async beforeWrite(ctx, body, existing) {
      const { id: _id, password, invite, classroom_ids: _classrooms, ...fields } = body as MemberAdd & { id?: number };
      if (existing) return withPassword({ ...fields }, password);
      // A new member has a first password, or is invited to set one (by email, or text message).
      const field = (name: string, message: Parameters<typeof ctx.req.t>[0]) => new ApiError(message, 0, { fields: { [name]: ctx.req.t(message) } });
      if (invite && password) throw field("password", msg`Give a first password or send an invitation, not both`);
      if (invite && invitationChannel(fields, await smsProviderSet(ctx.tx)) === null) throw field(fields.mobile ? "mobile" : "email", undeliverable(fields));
      if (!invite && !password) throw field("password", msg`A password is 6 to 32 characters, without & < > " or '`);
      return invite ? { ...fields, password_hash: NO_PASSWORD_HASH } : withPassword({ ...fields }, password);
    },
    async afterWrite(ctx, id, body, existing) {
      const data = body as MemberAdd;
      if (existing && (data.password || data.status === "disable")) await endAllSessions(ctx.tx, "user", [id]);
      // The classrooms the member sits in (a company admin's: only classrooms they reach).
      const wanted = [...new Set(data.classroom_ids)];
      await requireInScope(ctx, classroomResource, wanted);
      await setMemberClassrooms(ctx.tx, id, wanted);
    },
    async afterAdd(app, req, id, body) {
      if (!(body as MemberAdd).invite) return;
      // The member is there: a failure is logged, and staff can send the invitation again from the list.
      await inviteAfterCommit(app, req, [id]);
    },
    async editRow(ctx, row) {
      return { ...row, classroom_ids: await classroomIdsOfMember(ctx.tx, row.id) };
    },
  },
  // Staff enrol the member's reference photo for face checks.
  // Spreadsheets in and out; an invitation sent again.
  actions: { face: memberFaceAction, ...memberSheetActions, invite: inviteAction },
};
