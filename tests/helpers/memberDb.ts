import { afterEach } from "vitest";
import { deleteMemberDb, openMemberDb, type MemberDb } from "../../src/client/offline/db.ts";

/**
 * Fresh member databases for the tests of one file (fake-indexeddb): call at the top of the file
 * with a first member id no other file uses; each database the returned function opens is closed
 * and deleted after its test.
 */
export function memberDbs(firstId: number): () => MemberDb {
  let next = firstId;
  const opened: MemberDb[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) {
      db.close();
      await deleteMemberDb(db.memberId);
    }
  });
  return () => {
    const db = openMemberDb(++next);
    opened.push(db);
    return db;
  };
}
