import type { FastifyInstance } from "fastify";
import type { DashboardFigures } from "../../../shared/admin/members.ts";

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
    /** Every member `m`, or (placeholder `$n` true) those of the admin's company (`$n+1`) and the companies under it. */
    const members = (n: number) => `(not $${n}::boolean or m.company_id in (select company_subtree($${n + 1}::int)))`;
    const now = Math.floor(Date.now() / 1000);
    const today = now - (now % DAY);
    const first = today - 6 * DAY;
    const { rows } = await app.db.query<{ members: string; courses: string; questions: string; attempts: string }>(
      `select (select count(*) from member m where ${members(2)}) as members,
              (select count(*) from course) as courses,
              (select count(*) from exam_question where status <> 'hidden') as questions,
              (select count(*) from exam_attempt a join member m on m.id = a.user_id where a.started_at >= $1 and ${members(2)}) as attempts`,
      [today, scoped, admin.company_id],
    );
    const perDay = await app.db.query<{ day: string; count: string }>(
      `select ((m.create_time - $1) / ${DAY})::int as day, count(*) as count from member m
       where m.create_time >= $1 and m.create_time < $2 and ${members(3)} group by 1`,
      [first, today + DAY, scoped, admin.company_id],
    );
    const counts = new Map(perDay.rows.map((r) => [Number(r.day), Number(r.count)]));
    const figures: DashboardFigures = {
      members: Number(rows[0]!.members),
      courses: Number(rows[0]!.courses),
      questions: Number(rows[0]!.questions),
      attemptsToday: Number(rows[0]!.attempts),
      newMembers: Array.from({ length: 7 }, (_, i) => ({ day: new Date((first + i * DAY) * 1000).toISOString().slice(0, 10), count: counts.get(i) ?? 0 })),
    };
    return reply.success(figures);
  });
}
