import type { FastifyInstance } from "fastify";
import type { DashboardFigures } from "../../../shared/admin/members.ts";
import { dueThisWeek, reachOf } from "../report/service.ts";
import { dashboardCounts, newMembersPerDay } from "./repository.ts";

const DAY = 86_400;

/**
 * `GET /admin/dashboard/index` (rule `dashboard`, the home menu): the back office's figures.
 * Days are UTC days; "today" is the UTC day of the server's clock. A company admin's members and
 * attempts are their company's (crud/scope.ts); courses and questions are shared content.
 */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  app.get("/admin/dashboard/index", { config: { adminRule: "dashboard", companyAdmins: true } }, async (req, reply) => {
    const admin = req.admin!;
    const scoped = admin.is_company && !admin.is_super;
    const now = Math.floor(Date.now() / 1000);
    const today = now - (now % DAY);
    const first = today - 6 * DAY;
    const totals = await dashboardCounts(app.db, today, scoped, admin.company_id);
    const perDay = await newMembersPerDay(app.db, first, today + DAY, scoped, admin.company_id);
    const counts = new Map(perDay.map((r) => [Number(r.day), Number(r.count)]));
    const figures: DashboardFigures = {
      members: Number(totals.members),
      courses: Number(totals.courses),
      questions: Number(totals.questions),
      attemptsToday: Number(totals.attempts),
      dueThisWeek: await dueThisWeek(app.db, reachOf(admin), now),
      newMembers: Array.from({ length: 7 }, (_, i) => ({ day: new Date((first + i * DAY) * 1000).toISOString().slice(0, 10), count: counts.get(i) ?? 0 })),
    };
    return reply.success(figures);
  });
}
