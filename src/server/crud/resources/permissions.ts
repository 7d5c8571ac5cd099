import { msg } from "@lingui/core/macro";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { adminRuleIds } from "../../modules/admin/rules.ts";
import type { AdminRow } from "../../plugins/auth.ts";
import { deleteSessionTokens } from "./permissions.repository.ts";

/** A group's `rules` text ("*" or "1,2,3") as "all" or ids. */
export function parseRules(rules: string): "all" | number[] {
  if (rules.trim() === "*") return "all";
  return rules
    .split(",")
    .map((s) => s.trim())
    .filter((s) => /^\d{1,10}$/.test(s) && Number(s) <= 2_147_483_647)
    .map(Number);
}

/** True when `held` covers every rule of `wanted`. */
export function covers(held: "all" | Set<number>, wanted: "all" | number[]): boolean {
  if (held === "all") return true;
  if (wanted === "all") return false;
  return wanted.every((id) => held.has(id));
}

/** Refuses rule sets the acting admin does not hold (a group can grant only its creator's rules). */
export async function requireHeldRules(db: Queryable, actor: AdminRow, wanted: "all" | number[]): Promise<void> {
  if (!covers(await adminRuleIds(db, actor), wanted)) throw new ApiError(msg`You can only grant rules you hold yourself`);
}

/** Refuses acting on an admin who holds rules the acting admin does not (or is a super admin). */
export async function requireNotAbove(db: Queryable, actor: AdminRow, target: { id: number; is_super: boolean }): Promise<void> {
  const held = await adminRuleIds(db, actor);
  // A super admin: by the is_super flag or by a group granting "*".
  if (held === "all") return;
  const targetRules = target.is_super ? "all" : await adminRuleIds(db, { ...actor, id: target.id, is_super: false });
  if (targetRules === "all") throw new ApiError(msg`Only a super admin can change a super admin`);
  if (!covers(held, [...targetRules])) throw new ApiError(msg`You cannot change an admin who holds rules you do not hold`);
}

/** Ends every session of an account (password reset, disabled, deleted). */
export async function endAllSessions(db: Queryable, side: "admin" | "user", ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await deleteSessionTokens(db, side, ids);
}
