import type { FastifyRequest } from "fastify";
import type { Queryable } from "../db/index.ts";
import { translator } from "../i18n/index.ts";
import { insertAdminLog } from "./repository.ts";
import type { ResourceDef } from "./resource.ts";

/** Keys whose values never reach the admin log (any depth, any case). */
const SECRET_KEY = /pass|pwd|token|secret|captcha|salt|hash/i;
const MAX_DEPTH = 6;
const MAX_TEXT = 2000;

/** `value` without secret fields, long texts cut, for the log. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "…";
  if (Array.isArray(value)) return value.slice(0, 200).map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!SECRET_KEY.test(key)) out[key] = scrub(v, depth + 1);
  return out;
}

/** One admin log row for a write through the back office, in the write's transaction. */
export async function writeAdminLog(tx: Queryable, req: FastifyRequest, def: Pick<ResourceDef, "title">, action: string): Promise<void> {
  const admin = req.admin!;
  const title = `${translator("en")(def.title)} / ${action}`;
  const data = scrub({ query: req.query ?? {}, body: req.body ?? {} });
  const useragent = String(req.headers["user-agent"] ?? "").slice(0, 500);
  await insertAdminLog(tx, {
    adminId: admin.id,
    username: admin.username,
    title,
    url: req.url.split("?")[0]!.slice(0, 500),
    method: req.method,
    data: JSON.stringify(data),
    ip: req.ip,
    useragent,
  });
}
