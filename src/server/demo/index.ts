import type { Database, Queryable } from "../db/database.ts";
import { seedAccounts } from "./accounts.ts";
import { retellAccountLogs, seedAccountLogs } from "./accountLogs.ts";
import { seedExam, seedExamOfficial } from "./exam.ts";
import { seedCourse } from "./course.ts";
import { seedOrg } from "./org.ts";
import { accountCount, appMeta, demoMeta, insertAppMeta, lockDemoSeeding } from "./repository.ts";

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

/** Nothing left to seed, by the bookkeeping rows (`demo`: "1" a demo database, "0" not one; `seed:<part>`: that part ran). */
function seedingDone(meta: Map<string, string>, parts: SeedPart[]): boolean {
  const demo = meta.get("demo");
  if (demo === undefined) return false;
  return demo !== "1" || parts.every((part) => meta.has(`seed:${part.name}`));
}

export async function seedDemo(db: Database, parts: SeedPart[] = demoParts): Promise<string[]> {
  // Every start asks this first, in one read without the lock: a database that is not a demo
  // one, or whose every part has run, has nothing to do. Otherwise the locked path decides.
  if (seedingDone(await demoMeta(db), parts)) return [];
  return db.transaction(async (tx) => {
    await lockDemoSeeding(tx, 7_300_413);
    const meta = await appMeta(tx, "demo");
    if (meta === undefined) {
      const empty = (await accountCount(tx)) === 0;
      await insertAppMeta(tx, "demo", empty ? "1" : "0");
      if (!empty) return [];
    } else if (meta !== "1") {
      return [];
    }
    const ran: string[] = [];
    for (const part of parts) {
      const key = `seed:${part.name}`;
      if ((await appMeta(tx, key)) !== undefined) continue;
      await part.run(tx);
      await insertAppMeta(tx, key, String(Math.floor(Date.now() / 1000)));
      ran.push(part.name);
    }
    return ran;
  });
}
