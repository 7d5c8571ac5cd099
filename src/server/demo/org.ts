import type { Queryable } from "../db/database.ts";
import { DEMO_ADMIN, DEMO_MEMBER } from "./accounts.ts";
import { insertClassroom, insertCompany, insertDuties, seatMember, setMemberPlace } from "./repository.ts";

/**
 * A small organisation for the demo: a group company with a branch, two duties, and a
 * classroom (the demo admin as its head teacher) the demo member sits in. No content is assigned
 * to them, so everything stays open to every member.
 */
export async function seedOrg(tx: Queryable): Promise<void> {
  const group = await insertCompany(tx, { pid: 0, name: "示范集团 Demo Group", weigh: 10 });
  const branch = await insertCompany(tx, { pid: group, name: "华东分公司 East Branch" });
  const [duty] = await insertDuties(tx, [
    { name: "销售顾问 Sales adviser", weigh: 10 },
    { name: "店长 Store manager", weigh: 0 },
  ]);
  await setMemberPlace(tx, DEMO_MEMBER.username, branch, duty!);
  const now = Math.floor(Date.now() / 1000);
  const classroom = await insertClassroom(tx, {
    companyId: branch,
    name: "2026 新员工培训班 New staff class",
    headAdmin: DEMO_ADMIN.username,
    startTime: now,
    endTime: now + 90 * 86_400,
  });
  await seatMember(tx, classroom, DEMO_MEMBER.username);
}
