import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import { dbIdParam, isSafeText } from "../../../shared/schema.ts";
import { MOBILE_REGEX, validateAccount, validateMobile, validatePassword } from "../../../shared/validation.ts";
import { hashPassword } from "../../auth/password.ts";
import { ApiError } from "../../errors.ts";
import { translator, type Translate } from "../../i18n/index.ts";
import { smsProviderSet } from "../../modules/routine/sms.ts";
import { NO_PASSWORD_HASH, invitationChannel, inviteAfterCommit, undeliverable } from "../../modules/user/invitation.ts";
import { keysetBatches, sendRows, writeSheet } from "../export.ts";
import type { CrudContext, ExtraAction } from "../resource.ts";
import { isCompanyAdmin } from "../scope.ts";
import {
  companySubtree,
  insertMembers,
  membersByContact,
  membersByUsername,
  membersForExport,
  orgNames,
  setClassroomsOf,
  updateMembers,
  type MemberNow,
  type MemberWrite,
  type Named,
} from "./memberSheet.repository.ts";
import { readSheetCells } from "./questionSheet.ts";
import { SHEET_IMPORT_BODY_LIMIT, sheetFormat, sheetErrors, sheetImportFields, sheetTemplateAction, uploadedSheet, type SheetError, type SheetFormat, type SheetImportInput } from "./sheetFile.ts";

/**
 * Members as spreadsheets (`/admin/user/user/template|export|import`): one member per row after
 * a header row naming the columns (the template's words in either language, or the field names):
 * username, nickname, email, mobile, company, duty, classrooms (names separated by ";"), member
 * group, a first password, and whether to send an invitation. Only the username column is
 * required; a column left out of the file leaves that field of existing members as it is.
 *
 * A row whose username is a member's updates them (their password only when the row gives one);
 * any other row adds a member, who needs a first password or an invitation. The file is read
 * on the sheet thread (questionSheet.ts, readSheetCells) and checked, names looked up and
 * passwords hashed, before the action's transaction opens; a dry run answers what would be
 * added, updated and left unchanged and every bad row; the import itself is all or nothing and
 * sends the invitations once it has committed (by email, or by text message to a member with a
 * mobile and no email when an SMS provider is set; a row whose invitation could reach neither is
 * a bad row). A company admin imports only into their
 * company (and those under it), and updates only its members.
 */

const FIELDS = ["username", "nickname", "email", "mobile", "company", "duty", "classrooms", "group", "password", "invite"] as const;
type Field = (typeof FIELDS)[number];

/** Rows of the dry run's preview. */
const PREVIEW_ROWS = 20;

function headers(t: Translate): Record<Field, string> {
  return {
    username: t(msg`Username`),
    nickname: t(msg`Nickname`),
    email: t(msg`Email`),
    mobile: t(msg`Mobile`),
    company: t(msg`Company`),
    duty: t(msg`Duty`),
    classrooms: t(msg`Classrooms (separated by ;)`),
    group: t(msg`Member group`),
    password: t(msg`First password (empty: unchanged)`),
    invite: t(msg`Send an invitation (yes / no)`),
  };
}

/** A header cell's words without their explanation in brackets, for matching. */
const headerKey = (text: string) => text.split(/[(（]/)[0]!.trim().toLowerCase();

/** The column a header names: the template's header in either language, or the field's name. */
const HEADER_FIELDS: Map<string, Field> = (() => {
  const map = new Map<string, Field>();
  for (const language of ["en", "zh-cn"] as const) {
    const names = headers(translator(language));
    for (const field of FIELDS) map.set(headerKey(names[field]), field);
  }
  for (const field of FIELDS) map.set(field, field);
  return map;
})();

const YES = new Set(["yes", "y", "true", "1", "是", "发送", "邀请", "√", "✓"]);
const NO = new Set(["", "no", "n", "false", "0", "否", "不", "不发送", "×"]);

/** Classroom names in a cell: separated by ";" (or "；", "、", a line break). */
const splitNames = (cell: string) => [...new Set(cell.split(/[;；、\n]/).map((s) => s.trim()).filter(Boolean))];

type Action = "add" | "update" | "unchanged";
export interface PreviewRow {
  line: number;
  username: string;
  nickname: string;
  action: Action;
  /** What happens to the password: set from the file, kept (updates without one), or an invitation sent (by email, or by text message). */
  password: "set" | "kept" | "invite" | "inviteSms";
}
interface PlannedRow {
  line: number;
  action: Action;
  id: number | null;
  values: Omit<MemberWrite, "password_hash">;
  /** Fields whose column the file does not have (kept on update). */
  keep: Set<string>;
  password: string;
  invite: boolean;
  /** The classrooms, or null when the file has no such column. */
  classrooms: number[] | null;
}
export interface MemberPlan {
  rows: PlannedRow[];
  counts: Record<Action, number>;
  errors: SheetError[];
  errorCount: number;
  preview: PreviewRow[];
  /** Hashes of the first passwords the rows give (filled for a real import only). */
  hashes: Map<string, string>;
}

const refuse = (message: MessageDescriptor): never => {
  throw new ApiError(message);
};

/** Names to ids: a name used by more than one row is ambiguous (null). */
function byName(rows: readonly Named[]): Map<string, number | null> {
  const map = new Map<string, number | null>();
  for (const r of rows) {
    const key = r.name.trim();
    map.set(key, map.has(key) ? null : r.id);
  }
  return map;
}

/** Lets the event loop answer other requests between slices of a long loop. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads and checks a member sheet: every row planned (add, update, unchanged) or listed as bad. */
export async function readMemberSheet(ctx: CrudContext, file: { name: string; data: Buffer }): Promise<MemberPlan> {
  const t = ctx.req.t;
  const db = ctx.tx;
  const ext = /\.([a-z]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  if (ext !== "xlsx" && ext !== "csv") return refuse(msg`Choose an .xlsx or .csv file`);
  if (ext === "xlsx" && !(file.data[0] === 0x50 && file.data[1] === 0x4b && file.data[2] === 0x03 && file.data[3] === 0x04)) refuse(msg`The file is not a spreadsheet (.xlsx or .csv)`);
  const source = await readSheetCells(ext, file.data);
  if (source.length === 0) refuse(msg`The file has no rows`);

  // The header row: which column holds which field.
  const [head, ...body] = source;
  const columns = new Map<Field, number>();
  for (const [i, cell] of head!.cells.entries()) {
    if (typeof cell !== "string" || cell.trim() === "") continue;
    const field = HEADER_FIELDS.get(headerKey(cell));
    if (!field) refuse(msg`The first row must be the template's header row: the column "${cell.trim().slice(0, 50)}" is not one of the template's`);
    if (columns.has(field!)) refuse(msg`The first row must be the template's header row: the column "${cell.trim().slice(0, 50)}" is there twice`);
    columns.set(field!, i);
  }
  if (!columns.has("username")) refuse(msg`The first row must be the template's header row, with a username column at least`);

  const { found, bad } = sheetErrors(t);

  // First pass: each row on its own.
  interface Parsed {
    line: number;
    cell: (f: Field) => string;
  }
  const parsed: Parsed[] = [];
  let n = 0;
  for (const { line, cells } of body) {
    if (++n % 500 === 0) await breathe();
    if (cells.some((c) => typeof c === "object")) {
      bad(line, msg`formulas are not accepted: type the value itself`);
      continue;
    }
    const text = cells as string[];
    if (text.every((c) => c.trim() === "")) continue;
    parsed.push({ line, cell: (f) => (columns.has(f) ? (text[columns.get(f)!] ?? "").trim() : "") });
  }
  if (parsed.length === 0 && found.errorCount === 0) refuse(msg`The file has no members`);

  // What the rows name, looked up at once.
  const usernames = [...new Set(parsed.map((p) => p.cell("username")))];
  const emails = [...new Set(parsed.map((p) => p.cell("email").toLowerCase()).filter(Boolean))];
  const mobiles = [...new Set(parsed.map((p) => p.cell("mobile")).filter(Boolean))];
  const [org, existing, contacts, smsSet] = await Promise.all([orgNames(db), membersByUsername(db, usernames), membersByContact(db, emails, mobiles), smsProviderSet(db)]);
  const scoped = isCompanyAdmin(ctx);
  const own = ctx.admin.company_id ?? null;
  const reach = scoped ? (own === null ? new Set<number>() : await companySubtree(db, own)) : null;
  const companies = byName(org.companies);
  const duties = byName(org.duties);
  const groups = byName(org.groups);
  const classrooms = byName(org.classrooms.filter((c) => reach === null || (c.company_id !== null && reach.has(c.company_id))));
  const members = new Map(existing.map((m) => [m.username, m]));
  const emailOwner = new Map(contacts.filter((c) => c.email).map((c) => [c.email!.toLowerCase(), c.id]));
  const mobileOwner = new Map(contacts.filter((c) => c.mobile).map((c) => [c.mobile!, c.id]));
  const seen = { username: new Map<string, number>(), email: new Map<string, number>(), mobile: new Map<string, number>() };
  const keep = new Set(["nickname", "email", "mobile", "company", "duty", "group"].filter((f) => !columns.has(f as Field)));

  const rows: PlannedRow[] = [];
  const counts: Record<Action, number> = { add: 0, update: 0, unchanged: 0 };
  const preview: PreviewRow[] = [];
  n = 0;
  for (const { line, cell } of parsed) {
    if (++n % 500 === 0) await breathe();
    const problems: (MessageDescriptor | string)[] = [];
    const username = cell("username");
    const account = validateAccount(username);
    if (account) problems.push(account);
    const member: MemberNow | undefined = members.get(username);
    // A company admin reaches only their companies' members: a username outside them is taken.
    if (member && reach && (member.company_id === null || !reach.has(member.company_id))) problems.push(msg`the username ${username} is used by a member outside your company`);
    const nickname = cell("nickname");
    if ([...nickname].length > 50 || !isSafeText(nickname)) problems.push(msg`The nickname is at most 50 characters`);
    const email = cell("email");
    if (email !== "" && (!z.email().max(100).safeParse(email).success || !isSafeText(email))) problems.push(msg`Please enter the correct email address`);
    const mobile = cell("mobile");
    if (mobile !== "" && !MOBILE_REGEX.test(mobile)) problems.push(validateMobile(mobile)!);
    for (const [field, value] of [["username", username], ["email", email.toLowerCase()], ["mobile", mobile]] as const) {
      if (value === "") continue;
      const first = seen[field].get(value);
      if (first !== undefined) problems.push(field === "username" ? msg`the username ${value} is also in row ${first}` : field === "email" ? msg`the email ${email} is also in row ${first}` : msg`the mobile ${value} is also in row ${first}`);
      else seen[field].set(value, line);
    }
    if (email !== "" && emailOwner.has(email.toLowerCase()) && emailOwner.get(email.toLowerCase()) !== member?.id) problems.push(msg`the email ${email} is used by another member`);
    if (mobile !== "" && mobileOwner.has(mobile) && mobileOwner.get(mobile) !== member?.id) problems.push(msg`the mobile ${mobile} is used by another member`);

    const lookup = (field: "company" | "duty" | "group", names: Map<string, number | null>, unknown: (name: string) => MessageDescriptor): number | null => {
      const name = cell(field);
      if (name === "") return null;
      if (!names.has(name)) {
        problems.push(unknown(name));
        return null;
      }
      const id = names.get(name)!;
      if (id === null) problems.push(msg`the name ${name} is used by more than one row: rename one of them`);
      return id;
    };
    let companyId = lookup("company", companies, (name) => msg`company ${name} does not exist`);
    if (reach) {
      if (companyId !== null && !reach.has(companyId)) problems.push(msg`you may import members only into your own company (${cell("company")} is not under it)`);
      // Their members always have a company of theirs: an empty cell is their own.
      if (cell("company") === "") companyId = own;
    }
    const dutyId = lookup("duty", duties, (name) => msg`duty ${name} does not exist`);
    const groupId = lookup("group", groups, (name) => msg`member group ${name} does not exist`);
    let roomIds: number[] | null = null;
    if (columns.has("classrooms")) {
      roomIds = [];
      for (const name of splitNames(cell("classrooms"))) {
        const id = classrooms.get(name);
        if (id === undefined) problems.push(msg`classroom ${name} does not exist`);
        else if (id === null) problems.push(msg`the name ${name} is used by more than one row: rename one of them`);
        else roomIds.push(id);
      }
      roomIds.sort((a, b) => a - b);
    }
    const password = cell("password");
    if (password !== "") {
      const invalid = validatePassword(password);
      if (invalid) problems.push(invalid);
    }
    const inviteText = cell("invite").toLowerCase();
    const invite = YES.has(inviteText);
    if (!invite && !NO.has(inviteText)) problems.push(msg`the invitation column takes yes or no`);
    if (invite && password !== "") problems.push(msg`give a first password or send an invitation, not both`);
    // The invitation goes to the email the member will have, else their mobile (with an SMS provider).
    const contact = { email: columns.has("email") ? email : member?.email, mobile: columns.has("mobile") ? mobile : member?.mobile };
    const channel = invite ? invitationChannel(contact, smsSet) : null;
    if (invite && channel === null) problems.push(undeliverable(contact));
    if (!member && !invite && password === "") problems.push(msg`a new member needs a first password or an invitation`);

    if (problems.length > 0) {
      for (const p of problems) bad(line, p);
      continue;
    }
    const values = { username, nickname, email: email || null, mobile: mobile || null, company_id: companyId, duty_id: dutyId, group_id: groupId };
    let action: Action = "add";
    if (member) {
      const same =
        (keep.has("nickname") || member.nickname === values.nickname) &&
        (keep.has("email") || (member.email ?? null) === values.email) &&
        (keep.has("mobile") || (member.mobile ?? null) === values.mobile) &&
        (keep.has("company") || member.company_id === values.company_id) &&
        (keep.has("duty") || member.duty_id === values.duty_id) &&
        (keep.has("group") || member.group_id === values.group_id) &&
        (roomIds === null || roomIds.join() === member.classroom_ids.join()) &&
        password === "" &&
        !invite;
      action = same ? "unchanged" : "update";
    }
    counts[action]++;
    rows.push({ line, action, id: member?.id ?? null, values, keep, password, invite, classrooms: roomIds });
    if (preview.length < PREVIEW_ROWS) preview.push({ line, username, nickname: nickname || (member?.nickname ?? ""), action, password: channel === "mobile" ? "inviteSms" : invite ? "invite" : password !== "" ? "set" : "kept" });
  }
  return { rows, counts, ...found, preview, hashes: new Map() };
}

/**
 * The first passwords' hashes, one per distinct password: a sheet usually gives everyone the
 * same first password, and a slow hash per row would take minutes for thousands of rows.
 */
async function hashFirstPasswords(plan: MemberPlan): Promise<void> {
  const distinct = [...new Set(plan.rows.map((r) => r.password).filter(Boolean))];
  for (let i = 0; i < distinct.length; i += 4) {
    const part = distinct.slice(i, i + 4);
    const hashes = await Promise.all(part.map((p) => hashPassword(p)));
    part.forEach((p, j) => plan.hashes.set(p, hashes[j]!));
  }
}

/**
 * Writes the plan's adds and updates and their classrooms, all or nothing; answers the members
 * to invite (their invitations are opened once this has committed, in chunks: inviteAfterCommit).
 */
async function applyPlan(ctx: CrudContext, plan: MemberPlan): Promise<number[]> {
  const tx = ctx.tx;
  const hash = (r: PlannedRow) => (r.password ? plan.hashes.get(r.password)! : "");
  const adds = plan.rows.filter((r) => r.action === "add");
  const updates = plan.rows.filter((r) => r.action === "update");
  // The members named for update may have moved since the file was checked: a company admin's stay theirs.
  if (isCompanyAdmin(ctx) && updates.length > 0) {
    const reach = ctx.admin.company_id === null ? new Set<number>() : await companySubtree(tx, ctx.admin.company_id);
    const now = await membersByUsername(tx, updates.map((r) => r.values.username));
    if (now.some((m) => m.company_id === null || !reach.has(m.company_id))) refuse(msg`The members changed while the file was checked: check the file again`);
  }
  const ids = await insertMembers(
    tx,
    adds.map((r) => ({ ...r.values, password_hash: r.invite ? NO_PASSWORD_HASH : hash(r) })),
  );
  await updateMembers(
    tx,
    updates.map((r) => ({ ...r.values, password_hash: hash(r), id: r.id!, keep: r.keep })),
    Math.floor(Date.now() / 1000),
  );
  const rooms = new Map<number, number[]>();
  for (const r of [...adds, ...updates]) if (r.classrooms !== null) rooms.set(r.id ?? ids.get(r.values.username)!, r.classrooms);
  // A new member has no classrooms to take away.
  await setClassroomsOf(tx, rooms, new Set(updates.map((r) => r.id!)));
  return plan.rows.filter((r) => r.invite).map((r) => r.id ?? ids.get(r.values.username)!);
}

/** The template: the import's header row in the request's language and two example rows. */
function memberTemplate(ctx: CrudContext, format: SheetFormat): Promise<Buffer> {
  const t = ctx.req.t;
  const head = headers(t);
  const lines = [
    ["zhangsan", t(msg`Zhang San`), "zhangsan@example.com", "13800000000", "", "", "", "", "123456", t(msg`no`)],
    ["lisi", t(msg`Li Si`), "lisi@example.com", "", "", "", "", "", "", t(msg`yes`)],
  ];
  return writeSheet(t, "members", FIELDS.map((f) => head[f]), lines, format);
}

/**
 * The members the admin reaches (a company admin: their companies' members; `ids`: only these)
 * as a sheet in the import's layout, streamed: a batch of members a query, by id.
 */
async function sendMemberSheet(ctx: CrudContext, format: SheetFormat, ids: number[] | null, reply: FastifyReply): Promise<unknown> {
  const t = ctx.req.t;
  const head = headers(t);
  const reach = isCompanyAdmin(ctx) ? (ctx.admin.company_id === null ? [] : [...(await companySubtree(ctx.tx, ctx.admin.company_id))]) : null;
  const rows = keysetBatches(
    (after: number | null, limit) => membersForExport(ctx.tx, reach, ids, after ?? 0, limit),
    (m) => m.id,
    (m) => ({ ...m, classrooms: m.classrooms.join(";"), password: "", invite: "" }),
  );
  const columns = FIELDS.map((f) => ({ key: f, header: head[f] }));
  return sendRows(reply, { t, log: ctx.req.log, format, title: "members", name: "members", columns, rows, importable: true });
}

const report = (plan: MemberPlan) => ({ ...plan.counts, errorCount: plan.errorCount, errors: plan.errors, preview: plan.preview });

export const memberSheetActions: Record<string, ExtraAction> = {
  /** `GET template?format=`: the header row and two example rows (small: base64 in the envelope). */
  template: sheetTemplateAction("user/user/import", (fmt) => `members-template.${fmt}`, memberTemplate),
  /** `GET export?format=&ids[]=`: the members the admin reaches (or these), in the import's layout, as a download. */
  export: {
    method: "GET",
    input: z.object({ format: sheetFormat, ids: z.array(dbIdParam).max(10_000).optional(), id: dbIdParam.optional() }),
    run: async () => null,
    send(ctx, input, reply) {
      const { format: fmt, ids, id } = input as { format: SheetFormat; ids?: number[]; id?: number };
      const only = ids || id !== undefined ? [...(ids ?? []), ...(id === undefined ? [] : [id])] : null;
      return sendMemberSheet(ctx, fmt, only, reply);
    },
  },
  /** `POST import {name, data, confirm}`: a dry run (confirm false) or the import, all or nothing. */
  import: {
    method: "POST",
    bodyLimit: SHEET_IMPORT_BODY_LIMIT,
    input: z.object(sheetImportFields),
    async prepare(ctx, input) {
      const { name, data, confirm } = input as SheetImportInput;
      // The file (first passwords and all) is not the admin log's: the log keeps its size.
      const file = Buffer.from(data, "base64");
      (input as { data: string }).data = `(${file.length} bytes)`;
      uploadedSheet(file);
      const plan = await readMemberSheet(ctx, { name, data: file });
      if (confirm && plan.errorCount === 0) await hashFirstPasswords(plan);
      return plan;
    },
    async run(ctx, input, prepared) {
      const { confirm } = input as SheetImportInput;
      const plan = prepared as MemberPlan;
      const answer = report(plan);
      if (!confirm) return { ...answer, imported: 0 };
      if (plan.errorCount > 0) throw new ApiError(msg`Nothing was imported: correct the rows listed and try again`, 0, answer);
      const invite = await applyPlan(ctx, plan);
      return { ...answer, imported: plan.counts.add + plan.counts.update, invite };
    },
    async committed(app, req, result) {
      const { invite, ...answer } = result as { invite?: number[] };
      if (!invite) return answer;
      // `invited`: the invitations handed on; `kept`: of those, the ones only kept in the outbox table.
      const { sent, kept } = await inviteAfterCommit(app, req, invite);
      return { ...answer, invited: sent + kept, kept };
    },
  },
};

/** For tests: the template's header words in a language. */
export const memberSheetHeaders = (language: "en" | "zh-cn"): string[] => {
  const names = headers(translator(language));
  return FIELDS.map((f) => names[f]);
};
