import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import { msg } from "@lingui/core/macro";
import { ApiCode } from "../../../shared/constants.ts";
import { ApiError } from "../../errors.ts";
import type { AdminRow } from "../../plugins/auth.ts";
import { authorizeAdmin } from "./rules.ts";

/**
 * What an `/admin/...` route needs, declared on the route: `config: { adminRule: 'exam/room/edit' }`
 * (a rule of `admin_rule`), `'*'` (any rule granted: the back office's shell endpoints such as
 * the start data, upload, area), `SUPER_ADMIN_RULE` (super admins only) or `{ public: true }` (no admin at all: only login and logout).
 */
export type AdminRuleSpec = string | { public: true };

/** Any rule granted to the admin (a super admin, or a group granting at least one enabled rule). */
export const ANY_ADMIN_RULE = "*";

export { SUPER_ADMIN_RULE } from "./rules.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    adminRule?: AdminRuleSpec;
    /**
     * A company-scoped admin (`is_company`, crud/scope.ts) may call this route: it keeps them
     * inside their company itself (the CRUD engine's routes, the dashboard). Without it a named
     * rule's route is closed to them (code 401); `'*'` routes (start data, upload, area) stay open.
     */
    companyAdmins?: boolean;
  }
  interface FastifyRequest {
    /** The admin the route's `adminRule` check let through (null on other routes). */
    admin: AdminRow | null;
  }
}

export interface AdminRoute {
  method: string;
  url: string;
  adminRule: AdminRuleSpec;
  /** Open to company-scoped admins (see `companyAdmins` above). */
  companyAdmins: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Every `/admin/...` route with what it needs (tests walk it). */
    adminRoutes: AdminRoute[];
  }
}

/**
 * A rule naming route parameters (`gen/:name/index`, the generated resources' routes) is the
 * rule of the request: each `:param` is replaced by the request's value (a value that is not a
 * plain name makes a rule no admin holds).
 */
export function ruleOfRequest(rule: string, req: FastifyRequest): string {
  if (!rule.includes(":")) return rule;
  const params = (req.params ?? {}) as Record<string, unknown>;
  return rule.replace(/:([A-Za-z_]+)/g, (_, key: string) => {
    const value = params[key];
    return typeof value === "string" && /^[a-z0-9_]{1,64}$/.test(value) ? value : "!invalid";
  });
}

export const isAdminUrl = (url: string): boolean => url === "/admin" || url.startsWith("/admin/");

/**
 * The one permission mechanism of the back office. Every route under `/admin/` must declare
 * `config.adminRule`, or the server refuses to start (the route is named in the error), so a
 * new endpoint cannot forget its check. The check runs on the route's `onRequest`, before the
 * body is read: a logged-in admin (303 need login / 409 expired otherwise) who holds the rule
 * (code 401 otherwise). Member tokens never count. The admin is left on `req.admin`.
 * Register before any route.
 */
export const adminAccessPlugin = fp(
  async (app: FastifyInstance) => {
    const routes: AdminRoute[] = [];
    app.decorate("adminRoutes", routes);
    app.decorateRequest("admin", null);

    app.addHook("onRoute", (route: RouteOptions) => {
      if (!isAdminUrl(route.url)) return;
      const rule = (route.config as { adminRule?: AdminRuleSpec } | undefined)?.adminRule;
      const methods = ([] as string[]).concat(route.method);
      if (rule === undefined || rule === "" || (typeof rule === "object" && rule?.public !== true)) {
        throw new Error(
          `${methods.join(",")} ${route.url} declares no admin rule: every /admin/ route needs config.adminRule (a rule name, '*', or { public: true } for login)`,
        );
      }
      const companyAdmins = (route.config as { companyAdmins?: boolean } | undefined)?.companyAdmins === true;
      for (const method of methods) routes.push({ method, url: route.url, adminRule: rule, companyAdmins });
      if (typeof rule !== "string") return;
      const check: onRequestHookHandler = async (req: FastifyRequest) => {
        const admin = await authorizeAdmin(app.db, req, ruleOfRequest(rule, req));
        if (rule !== ANY_ADMIN_RULE && !companyAdmins && admin.is_company && !admin.is_super) {
          throw new ApiError(msg`You have no permission to do this`, ApiCode.NO_PERMISSION, null);
        }
        req.admin = admin;
      };
      route.onRequest = [check, ...(route.onRequest ? ([] as onRequestHookHandler[]).concat(route.onRequest) : [])];
    });
  },
  { name: "admin-access" },
);
