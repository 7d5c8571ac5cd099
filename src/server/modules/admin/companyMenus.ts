import type { FastifyInstance } from "fastify";
import { mountedResources } from "../../crud/registry.ts";
import type { AdminRow } from "../../plugins/auth.ts";
import type { RuleRow } from "./rules.ts";

const under = (name: string, prefix: string): boolean => name === prefix || name.startsWith(`${prefix}/`);

/**
 * The menus of a company-scoped admin (crud/scope.ts) leave out the screens closed to them, so
 * a menu never leads to "no permission": a rule is closed when it belongs to a CRUD resource
 * without a `company` declaration (admins, groups, rules...), or when every route under it is
 * closed to company admins (`companyAdmins` not set: site settings, the terminal...). A menu
 * folder left with nothing in it goes too. Others (super admins, plain admins) see their rules.
 * The server's own checks do not depend on this: it only keeps the menus honest.
 */
export function menuRulesFor(app: FastifyInstance, admin: AdminRow, rules: RuleRow[]): RuleRow[] {
  if (!admin.is_company || admin.is_super) return rules;
  const closedResources = mountedResources()
    .filter((def) => !def.company)
    .map((def) => def.rule);
  const named = app.adminRoutes.filter((r): r is typeof r & { adminRule: string } => typeof r.adminRule === "string" && r.adminRule !== "*");
  const closed = (name: string): boolean => {
    if (!name) return false;
    if (closedResources.some((prefix) => under(name, prefix))) return true;
    const routes = named.filter((r) => under(r.adminRule, name));
    return routes.length > 0 && routes.every((r) => !r.companyAdmins);
  };
  let kept = rules.filter((rule) => !closed(rule.name));
  const hadChildren = new Set(rules.map((r) => r.pid));
  // Folders emptied by the above (a folder of folders empties from the bottom up).
  for (;;) {
    const parents = new Set(kept.map((r) => r.pid));
    const next = kept.filter((r) => r.type !== "menu_dir" || !hadChildren.has(r.id) || parents.has(r.id));
    if (next.length === kept.length) return next;
    kept = next;
  }
}
