import type { FastifyInstance } from "fastify";
import { mountedResources } from "../../crud/registry.ts";
import type { AdminRow } from "../../plugins/auth.ts";
import { ANY_ADMIN_RULE } from "./access.ts";
import { SUPER_ADMIN_RULE, type RuleRow } from "./rules.ts";

const under = (name: string, prefix: string): boolean => name === prefix || name.startsWith(`${prefix}/`);

/**
 * An admin's menus leave out the screens the server would refuse them, so a menu never leads to
 * "no permission":
 * - super-admin tools (the code generator...: routes needing `SUPER_ADMIN_RULE` under
 *   `/admin/<rule>/`) for anyone who is not a super admin (`holdsAll`: the flag or a `*` group);
 * - for a company-scoped admin (crud/scope.ts), CRUD resources without a `company` declaration
 *   (admins, groups, rules...) and screens whose every route is closed to company admins (site
 *   settings...).
 * A rule with no route of its own is kept; a menu folder left with nothing in it goes. The
 * server's own checks do not depend on this: it only keeps the menus honest.
 */
export function menuRulesFor(app: FastifyInstance, admin: AdminRow, rules: RuleRow[], holdsAll: boolean): RuleRow[] {
  const company = admin.is_company && !admin.is_super;
  if (holdsAll && !company) return rules;
  const closedResources = company
    ? mountedResources()
        .filter((def) => !def.company)
        .map((def) => def.rule)
    : [];
  const routes = app.adminRoutes.filter((r): r is typeof r & { adminRule: string } => typeof r.adminRule === "string" && r.adminRule !== ANY_ADMIN_RULE && r.method !== "HEAD");
  const belongs = (route: (typeof routes)[number], name: string) =>
    route.adminRule === SUPER_ADMIN_RULE ? route.url.startsWith(`/admin/${name}/`) : under(route.adminRule, name);
  const open = (route: (typeof routes)[number]) => (route.adminRule === SUPER_ADMIN_RULE ? holdsAll && !company : !company || route.companyAdmins);
  const closed = (name: string): boolean => {
    if (!name) return false;
    if (closedResources.some((prefix) => under(name, prefix))) return true;
    const own = routes.filter((r) => belongs(r, name));
    return own.length > 0 && !own.some(open);
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
