import type { Queryable } from "../../db/index.ts";
import type { RuleRow } from "./rules.ts";

/**
 * The admin module's rows (rules.ts and dashboard.ts call these; no SQL lives beside them). The
 * rule checks run on every admin request: each is one statement, sent as it is.
 */

/** The `rules` lists of the enabled groups the admin belongs to (run on every admin request). */
export async function adminGroupRules(q: Queryable, adminId: number): Promise<string[]> {
  const { rows } = await q.query<{ rules: string }>(
    `select g.rules from admin_group g join admin_group_access a on a.group_id = g.id
     where a.uid = $1 and g.status = 'enable'`,
    [adminId],
  );
  return rows.map((r) => r.rules);
}

/** Every enabled rule, by weigh (desc) then id. */
export async function enabledRules(q: Queryable): Promise<RuleRow[]> {
  const { rows } = await q.query<RuleRow>(
    `select id, pid, type, title, title_en, name, path, icon, menu_type, url, component, keepalive, extend, weigh
     from admin_rule where status = 'enable' order by weigh desc, id`,
  );
  return rows;
}

/** One enabled rule among these ids, if any. */
export async function anyEnabledRule(q: Queryable, ids: number[]): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>("select id from admin_rule where id = any($1::int[]) and status = 'enable' limit 1", [ids]);
  return rows.map((r) => r.id);
}

/** The ids of the enabled rules of this name. */
export async function enabledRuleIdsNamed(q: Queryable, name: string): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>("select id from admin_rule where name = $1 and status = 'enable'", [name]);
  return rows.map((r) => r.id);
}

export interface DashboardCounts {
  members: string;
  courses: string;
  questions: string;
  attempts: string;
}

/**
 * Every member `m`, or (placeholder `$n` true) those of the admin's company (`$n+1`) and the
 * companies under it.
 */
const members = (n: number) => `(not $${n}::boolean or m.company_id in (select company_subtree($${n + 1}::int)))`;
const DAY = 86_400;

/** The dashboard's totals; members and attempts (started since `today`) of the company's subtree when `scoped`. */
export async function dashboardCounts(q: Queryable, today: number, scoped: boolean, companyId: number | null): Promise<DashboardCounts> {
  const { rows } = await q.query<DashboardCounts>(
    `select (select count(*) from member m where ${members(2)}) as members,
            (select count(*) from course) as courses,
            (select count(*) from exam_question where status <> 'hidden') as questions,
            (select count(*) from exam_attempt a join member m on m.id = a.user_id where a.started_at >= $1 and ${members(2)}) as attempts`,
    [today, scoped, companyId],
  );
  return rows[0]!;
}

/** New members per UTC day in [from, to): the day's index from `from` and its count. */
export async function newMembersPerDay(q: Queryable, from: number, to: number, scoped: boolean, companyId: number | null): Promise<{ day: string; count: string }[]> {
  const { rows } = await q.query<{ day: string; count: string }>(
    `select ((m.create_time - $1) / ${DAY})::int as day, count(*) as count from member m
     where m.create_time >= $1 and m.create_time < $2 and ${members(3)} group by 1`,
    [from, to, scoped, companyId],
  );
  return rows;
}
