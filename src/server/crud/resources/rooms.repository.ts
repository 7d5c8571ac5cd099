import { sql } from "kysely";
import type { Queryable } from "../../db/index.ts";
import { kyselyOf, rowById } from "../../db/kysely.ts";
import { idIn } from "../repository.ts";

const count = sql<number>`count(*)::int`.as("n");

/** The paper's promised total and status, if it exists. */
export async function paperOfRoom(q: Queryable, paperId: number): Promise<{ total_score: string; status: string } | undefined> {
  const row = await rowById(q, "exam_paper", ["total_score", "status"], paperId);
  return row as { total_score: string; status: string } | undefined;
}

export async function memberGroupExists(q: Queryable, id: number): Promise<boolean> {
  return (await rowById(q, "user_group", ["id"], id)) !== undefined;
}

export async function faceRuleExists(q: Queryable, id: number): Promise<boolean> {
  return (await rowById(q, "face_rule", ["id"], id)) !== undefined;
}

/** How many attempts were made in these rooms, in all. */
export async function attemptsInRooms(q: Queryable, roomIds: readonly unknown[]): Promise<number> {
  const row = await kyselyOf(q).selectFrom("exam_attempt").select(count).where(idIn("room_id", roomIds)).executeTakeFirstOrThrow();
  return row.n;
}

/** How many attempts were made in each of these rooms (rooms without any are left out). */
export async function attemptsPerRoom(q: Queryable, roomIds: readonly number[]): Promise<{ room_id: number; n: number }[]> {
  const rows = await kyselyOf(q).selectFrom("exam_attempt").select(["room_id", count]).where(idIn("room_id", roomIds)).groupBy("room_id").execute();
  return rows as { room_id: number; n: number }[];
}
