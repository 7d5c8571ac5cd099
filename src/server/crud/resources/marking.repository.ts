import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import { idIn } from "../repository.ts";

/** These attempts' answers, by question id. */
export async function answersOfAttempts(q: Queryable, attemptIds: readonly number[]): Promise<{ id: number; answers: Record<string, unknown> }[]> {
  const rows = await kyselyOf(q).selectFrom("exam_attempt").select(["id", "answers"]).where(idIn("id", attemptIds)).execute();
  return rows as { id: number; answers: Record<string, unknown> }[];
}

/** The username of the member who sat the attempt. */
export async function usernameOfAttempt(q: Queryable, attemptId: unknown): Promise<string | undefined> {
  const row = await kyselyOf(q)
    .selectFrom("exam_attempt as a")
    .innerJoin("member as m", "m.id", "a.user_id")
    .select("m.username")
    .where("a.id", "=", attemptId as number)
    .executeTakeFirst();
  return row?.username;
}
