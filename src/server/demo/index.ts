import type { Database, Queryable } from "../db/database.ts";
import { seedAccounts } from "./accounts.ts";
import { retellAccountLogs, seedAccountLogs } from "./accountLogs.ts";
import { seedExam, seedExamOfficial } from "./exam.ts";
import { seedCourse } from "./course.ts";
import { seedOrg } from "./org.ts";

/**
 * Demo data. A database becomes a demo database only when it is empty at its first start and
 * demo seeding is on (embedded default, or SEED_DEMO=1). Each part runs once per database, so
 * a later release can add demo content to an existing demo database without repeating (or
 * resurrecting) what an admin has since changed or deleted.
 */
export interface SeedPart {
  name: string;
  run(tx: Queryable): Promise<void>;
}

export const demoParts: SeedPart[] = [
  { name: "accounts", run: seedAccounts },
  { name: "accountLogs", run: seedAccountLogs },
  // Databases seeded before the story above was told (on a new database it finds nothing to do).
  { name: "accountLogsRetold", run: retellAccountLogs },
  { name: "exam", run: seedExam },
  { name: "examOfficial", run: seedExamOfficial },
  { name: "course", run: seedCourse },
  { name: "org", run: seedOrg },
];

export async function seedDemo(db: Database, parts: SeedPart[] = demoParts): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [7_300_413]);
    const meta = await tx.query<{ value: string }>("select value from app_meta where key = 'demo'");
    if (!meta.rows[0]) {
      const { rows } = await tx.query<{ n: number }>(
        "select (select count(*) from admin) + (select count(*) from member) as n",
      );
      const empty = Number(rows[0]?.n ?? 0) === 0;
      await tx.query("insert into app_meta (key, value) values ('demo', $1)", [empty ? "1" : "0"]);
      if (!empty) return [];
    } else if (meta.rows[0].value !== "1") {
      return [];
    }
    const ran: string[] = [];
    for (const part of parts) {
      const key = `seed:${part.name}`;
      const done = await tx.query("select 1 from app_meta where key = $1", [key]);
      if (done.rows.length) continue;
      await part.run(tx);
      await tx.query("insert into app_meta (key, value) values ($1, $2)", [key, String(Math.floor(Date.now() / 1000))]);
      ran.push(part.name);
    }
    return ran;
  });
}
