import type { FastifyInstance } from "fastify";
import type { DashboardFigures } from "../../../shared/admin/members.ts";

const DAY = 86_400;

/**
 * `GET /admin/dashboard/index` (rule `dashboard`, the home menu): the back office's figures.
 * Days are UTC days; "today" is the UTC day of the server's clock.
 */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  app.get("/admin/dashboard/index", { config: { adminRule: "dashboard" } }, async (_req, reply) => {
    const now = Math.floor(Date.now() / 1000);
    const today = now - (now % DAY);
    const first = today - 6 * DAY;
    const { rows } = await app.db.query<{ members: string; courses: string; questions: string; attempts: string }>(
      `select (select count(*) from member) as members,
              (select count(*) from course) as courses,
              (select count(*) from exam_question) as questions,
              (select count(*) from exam_attempt where started_at >= $1) as attempts`,
      [today],
    );
    const perDay = await app.db.query<{ day: string; count: string }>(
      `select ((create_time - $1) / ${DAY})::int as day, count(*) as count from member
       where create_time >= $1 and create_time < $2 group by 1`,
      [first, today + DAY],
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
