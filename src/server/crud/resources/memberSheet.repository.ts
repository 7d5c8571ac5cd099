import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";

/** The rows the member import and export read and write (memberSheet.ts). */

export interface Named {
  id: number;
  name: string;
}

/** Every company, duty, classroom (with its company) and member group, by name. */
export async function orgNames(q: Queryable): Promise<{ companies: Named[]; duties: Named[]; classrooms: (Named & { company_id: number | null })[]; groups: Named[] }> {
  const k = kyselyOf(q);
  const [companies, duties, classrooms, groups] = await Promise.all([
    k.selectFrom("company").select(["id", "name"]).execute(),
    k.selectFrom("duty").select(["id", "name"]).execute(),
    k.selectFrom("classroom").select(["id", "name", "company_id"]).execute(),
    k.selectFrom("user_group").select(["id", "name"]).execute(),
  ]);
  return { companies, duties, classrooms, groups };
}

/** The company and the companies under it. */
export async function companySubtree(q: Queryable, root: number): Promise<Set<number>> {
  const { rows } = await sql<{ id: number }>`select company_subtree(${root}::int) as id`.execute(kyselyOf(q));
  return new Set(rows.map((r) => r.id));
}

/** A member's own columns that a sheet's row sets. */
interface MemberColumns {
  username: string;
  nickname: string;
  email: string | null;
  mobile: string | null;
  company_id: number | null;
  duty_id: number | null;
  group_id: number | null;
}

export interface MemberNow extends MemberColumns {
  id: number;
  classroom_ids: number[];
}

/** The members of these usernames, with their classrooms. */
export async function membersByUsername(q: Queryable, usernames: readonly string[]): Promise<MemberNow[]> {
  if (usernames.length === 0) return [];
  const { rows } = await sql<MemberNow>`
    select m.id, m.username, m.nickname, m.email, m.mobile, m.company_id, m.duty_id, m.group_id,
      coalesce((select array_agg(cm.classroom_id order by cm.classroom_id) from classroom_member cm where cm.user_id = m.id), '{}') as classroom_ids
    from member m where m.username = any(${[...usernames]}::text[])`.execute(kyselyOf(q));
  return rows.map((r) => ({ ...r, classroom_ids: (r.classroom_ids ?? []).map(Number) }));
}

/** Members using any of these emails (compared without case) or mobiles. */
export async function membersByContact(q: Queryable, emails: readonly string[], mobiles: readonly string[]): Promise<{ id: number; email: string | null; mobile: string | null }[]> {
  if (emails.length === 0 && mobiles.length === 0) return [];
  const { rows } = await sql<{ id: number; email: string | null; mobile: string | null }>`
    select id, email, mobile from member
    where lower(email) = any(${[...emails]}::text[]) or mobile = any(${[...mobiles]}::text[])`.execute(kyselyOf(q));
  return rows;
}

export interface MemberWrite extends MemberColumns {
  password_hash: string;
}

/** Inserts the members (500 per statement); answers their ids by username. */
export async function insertMembers(q: Queryable, rows: readonly MemberWrite[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const k = kyselyOf(q);
  for (let i = 0; i < rows.length; i += 500) {
    const done = await k.insertInto("member").values(rows.slice(i, i + 500)).returning(["id", "username"]).execute();
    for (const r of done) ids.set(r.username, r.id);
  }
  return ids;
}

/** Changes members in one statement per 1,000: each column given, or kept (`keep_<column>`); the password only when a hash is given. */
export async function updateMembers(q: Queryable, rows: readonly (MemberWrite & { id: number; keep: ReadonlySet<string> })[], now: number): Promise<void> {
  const k = kyselyOf(q);
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    const col = <T>(f: (r: (typeof part)[number]) => T) => part.map(f);
    const kept = (name: string) => col((r) => r.keep.has(name));
    await sql`
      update member m set
        nickname = case when v.keep_nickname then m.nickname else v.nickname end,
        email = case when v.keep_email then m.email else v.email end,
        mobile = case when v.keep_mobile then m.mobile else v.mobile end,
        company_id = case when v.keep_company then m.company_id else v.company_id end,
        duty_id = case when v.keep_duty then m.duty_id else v.duty_id end,
        group_id = case when v.keep_group then m.group_id else v.group_id end,
        password_hash = case when v.password_hash = '' then m.password_hash else v.password_hash end,
        update_time = ${now}
      from unnest(
        ${col((r) => r.id)}::int[], ${col((r) => r.nickname)}::text[], ${col((r) => r.email)}::text[], ${col((r) => r.mobile)}::text[],
        ${col((r) => r.company_id)}::int[], ${col((r) => r.duty_id)}::int[], ${col((r) => r.group_id)}::int[], ${col((r) => r.password_hash)}::text[],
        ${kept("nickname")}::bool[], ${kept("email")}::bool[], ${kept("mobile")}::bool[], ${kept("company")}::bool[], ${kept("duty")}::bool[], ${kept("group")}::bool[]
      ) as v(id, nickname, email, mobile, company_id, duty_id, group_id, password_hash, keep_nickname, keep_email, keep_mobile, keep_company, keep_duty, keep_group)
      where m.id = v.id`.execute(k);
  }
}

/**
 * Puts each member in exactly their classrooms (members not named keep theirs); arrays travel as
 * one parameter each. Only the members of `existing` can have classrooms to leave (`undefined`:
 * any of them).
 */
export async function setClassroomsOf(q: Queryable, members: ReadonlyMap<number, readonly number[]>, existing?: ReadonlySet<number>): Promise<void> {
  if (members.size === 0) return;
  const k = kyselyOf(q);
  const ids = [...members.keys()].filter((id) => !existing || existing.has(id));
  const pairs = [...members].flatMap(([user, rooms]) => rooms.map((room) => [user, room] as const));
  const users = pairs.map((p) => p[0]);
  const rooms = pairs.map((p) => p[1]);
  if (ids.length > 0)
    await sql`
    delete from classroom_member cm where cm.user_id = any(${ids}::int[])
      and not exists (select 1 from unnest(${users}::int[], ${rooms}::int[]) as w(u, c) where w.u = cm.user_id and w.c = cm.classroom_id)`.execute(k);
  if (pairs.length > 0) await sql`insert into classroom_member (classroom_id, user_id) select c, u from unnest(${users}::int[], ${rooms}::int[]) as w(u, c) on conflict do nothing`.execute(k);
}

export interface MemberOut {
  id: number;
  username: string;
  nickname: string;
  email: string | null;
  mobile: string | null;
  company: string | null;
  duty: string | null;
  group: string | null;
  classrooms: string[];
}

/**
 * One batch of the export's members (a company admin's: `companies` only; `ids`: only these):
 * the first `limit` after the member `after`, by id (keyset: each batch is a short query on the
 * primary key, however many members there are).
 */
export async function membersForExport(q: Queryable, companies: readonly number[] | null, ids: readonly number[] | null, after: number, limit: number): Promise<MemberOut[]> {
  const { rows } = await sql<MemberOut>`
    select m.id, m.username, m.nickname, m.email, m.mobile, c.name as company, d.name as duty, g.name as "group",
      coalesce((select array_agg(r.name order by r.id) from classroom_member cm join classroom r on r.id = cm.classroom_id where cm.user_id = m.id), '{}') as classrooms
    from member m
    left join company c on c.id = m.company_id
    left join duty d on d.id = m.duty_id
    left join user_group g on g.id = m.group_id
    where m.id > ${after}
      and (${companies === null} or m.company_id = any(${companies ?? []}::int[]))
      and (${ids === null} or m.id = any(${ids ?? []}::int[]))
    order by m.id
    limit ${limit}`.execute(kyselyOf(q));
  return rows;
}
