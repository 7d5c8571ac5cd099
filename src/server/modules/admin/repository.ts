import { sql, type RawBuilder } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import type { RuleRow } from "./rules.ts";

/**
 * The admin module's rows (rules.ts and dashboard.ts call these; no SQL lives beside them). The
 * rule checks run on every admin request: each is one statement.
 */

/** The `rules` lists of the enabled groups the admin belongs to (run on every admin request). */
export async function adminGroupRules(q: Queryable, adminId: number): Promise<string[]> {
  const rows = await kyselyOf(q)
    .selectFrom("admin_group as g")
    .innerJoin("admin_group_access as a", "a.group_id", "g.id")
    .select("g.rules")
    .where("a.uid", "=", adminId)
    .where("g.status", "=", "enable")
    .execute();
  return rows.map((r) => r.rules);
}

/** Every enabled rule of a side (the back office's `admin_rule`, the member side's `user_rule`), by weigh (desc) then id. */
export async function enabledRules(q: Queryable, table: "admin_rule" | "user_rule" = "admin_rule"): Promise<RuleRow[]> {
  return kyselyOf(q)
    .selectFrom(table)
    .select(["id", "pid", "type", "title", "title_en", "name", "path", "icon", "menu_type", "url", "component", "keepalive", "extend", "weigh"])
    .where("status", "=", "enable")
    .orderBy("weigh", "desc")
    .orderBy("id")
    .$castTo<RuleRow>()
    .execute();
}

/** One enabled rule among these ids, if any. */
export async function anyEnabledRule(q: Queryable, ids: number[]): Promise<number[]> {
  const rows = await kyselyOf(q)
    .selectFrom("admin_rule")
    .select("id")
    .where(sql<boolean>`id = any(${ids}::int[])`)
    .where("status", "=", "enable")
    .limit(1)
    .execute();
  return rows.map((r) => r.id);
}

/** The ids of the enabled rules of this name. */
export async function enabledRuleIdsNamed(q: Queryable, name: string): Promise<number[]> {
  const rows = await kyselyOf(q).selectFrom("admin_rule").select("id").where("name", "=", name).where("status", "=", "enable").execute();
  return rows.map((r) => r.id);
}

export interface DashboardCounts {
  members: string;
  courses: string;
  questions: string;
  attempts: string;
}

/** Every member `m`, or (`scoped`) those of the admin's company and the companies under it. */
const members = (scoped: boolean, companyId: number | null): RawBuilder<boolean> =>
  sql<boolean>`(not ${scoped}::boolean or m.company_id in (select company_subtree(${companyId}::int)))`;
const DAY = 86_400;

/** The dashboard's totals; members and attempts (started since `today`) of the company's subtree when `scoped`. */
export async function dashboardCounts(q: Queryable, today: number, scoped: boolean, companyId: number | null): Promise<DashboardCounts> {
  const inScope = members(scoped, companyId);
  const { rows } = await sql<DashboardCounts>`select (select count(*) from member m where ${inScope}) as members,
            (select count(*) from course) as courses,
            (select count(*) from exam_question where status <> 'hidden') as questions,
            (select count(*) from exam_attempt a join member m on m.id = a.user_id where a.started_at >= ${today} and ${inScope}) as attempts`.execute(kyselyOf(q));
  return rows[0]!;
}

/** New members per UTC day in [from, to): the day's index from `from` and its count. */
export async function newMembersPerDay(q: Queryable, from: number, to: number, scoped: boolean, companyId: number | null): Promise<{ day: string; count: string }[]> {
  const { rows } = await sql<{ day: string; count: string }>`select ((m.create_time - ${from}) / ${DAY})::int as day, count(*) as count from member m
     where m.create_time >= ${from} and m.create_time < ${to} and ${members(scoped, companyId)} group by 1`.execute(kyselyOf(q));
  return rows;
}
