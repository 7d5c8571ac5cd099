import type { FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import { ApiCode } from "../../../shared/constants.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { requireAdmin } from "../../plugins/auth.ts";
import type { Language } from "../../../shared/constants.ts";
import type { AdminRow } from "../../plugins/auth.ts";
import { adminGroupRules, anyEnabledRule, enabledRuleIdsNamed, enabledRules } from "./repository.ts";

/**
 * Every admin endpoint's gate, run by the route option `config.adminRule` (access.ts): a
 * logged-in admin (303 / 409 otherwise) who holds the rule (code 401 otherwise; super admins
 * hold every rule; `*` any rule). A member token is never an admin token.
 */
export async function authorizeAdmin(db: Queryable, req: FastifyRequest, rule: string): Promise<AdminRow> {
  const admin = await requireAdmin(db, req);
  if (!(await adminHasRule(db, admin, rule))) throw new ApiError(msg`You have no permission to do this`, ApiCode.NO_PERMISSION, null);
  return admin;
}

/**
 * Super admins only (the `is_super` flag or a group granting `*`): the tools that change the
 * running system, such as the terminal. No rule row has this name (rule names are paths).
 */
export const SUPER_ADMIN_RULE = "!super";

export interface RuleRow {
  id: number;
  pid: number;
  type: string;
  title: string;
  title_en: string;
  name: string;
  path: string;
  icon: string;
  menu_type: string | null;
  url: string;
  component: string;
  keepalive: boolean;
  extend: string;
  weigh: number;
}

export interface RuleNode extends Omit<RuleRow, "title_en" | "weigh"> {
  children: RuleNode[];
}

/** Rule rows -> the tree the client builds menus and permission nodes from (API.md). */
export function ruleTree(rows: RuleRow[], lang: Language): RuleNode[] {
  const sorted = [...rows].sort((a, b) => b.weigh - a.weigh || a.id - b.id);
  const nodes = new Map<number, RuleNode>();
  for (const { title_en, weigh: _w, ...row } of sorted) {
    nodes.set(row.id, { ...row, title: lang === "en" && title_en ? title_en : row.title, children: [] });
  }
  const roots: RuleNode[] = [];
  for (const row of sorted) {
    const node = nodes.get(row.id)!;
    const parent = row.pid ? nodes.get(row.pid) : undefined;
    if (parent) parent.children.push(node);
    else if (!row.pid) roots.push(node);
    // A rule whose parent the admin may not see is not shown either.
  }
  return roots;
}

/** The rule ids an admin's groups grant, or "all" for a super admin. */
export async function adminRuleIds(db: Queryable, admin: AdminRow): Promise<"all" | Set<number>> {
  if (admin.is_super) return "all";
  const ids = new Set<number>();
  for (const rules of await adminGroupRules(db, admin.id)) {
    if (rules.trim() === "*") return "all";
    for (const id of rules.split(",")) if (/^\d{1,10}$/.test(id.trim()) && Number(id) <= 2_147_483_647) ids.add(Number(id));
  }
  return ids;
}

export async function adminRules(db: Queryable, admin: AdminRow): Promise<RuleRow[]> {
  const ids = await adminRuleIds(db, admin);
  const rows = await enabledRules(db);
  return ids === "all" ? rows : rows.filter((r) => ids.has(r.id));
}

/**
 * Server-side permission check: the admin holds the rule with this name, or with `*` any
 * enabled rule at all (super admins hold every rule), or with `!super` is a super admin.
 */
export async function adminHasRule(db: Queryable, admin: AdminRow, name: string): Promise<boolean> {
  const ids = await adminRuleIds(db, admin);
  if (ids === "all") return true;
  if (name === SUPER_ADMIN_RULE) return false;
  if (ids.size === 0) return false;
  const found = name === "*" ? await anyEnabledRule(db, [...ids]) : await enabledRuleIdsNamed(db, name);
  return found.some((id) => ids.has(id));
}
