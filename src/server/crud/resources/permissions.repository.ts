import type { Queryable } from "../../db/index.ts";
import { kyselyOf } from "../../db/kysely.ts";
import { idIn } from "../repository.ts";

/** Deletes every access and refresh token of these accounts of one side. */
export async function deleteSessionTokens(q: Queryable, side: "admin" | "user", ids: readonly number[]): Promise<void> {
  await kyselyOf(q)
    .deleteFrom("token")
    .where("type", "in", [side, `${side}-refresh`])
    .where(idIn("user_id", ids))
    .execute();
}
