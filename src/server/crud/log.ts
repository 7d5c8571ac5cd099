import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
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

/**
 * What a log row names, by its English text: a row keeps "Title / action" in English (one text
 * to search, whoever wrote it) and is shown in the reader's language (`logTitleIn`). Every title
 * that writes the log is known here: the CRUD engine's resources as they are mounted, the others
 * as they are declared or first written.
 */
const titles = new Map<string, MessageDescriptor>();

/** Makes a title known to the log's reader; answers it. */
export function logTitle(title: MessageDescriptor): MessageDescriptor {
  titles.set(translator("en")(title), title);
  return title;
}

/** The actions a reader sees in words; any other (a terminal command, a module's action) as written. */
const ACTIONS: Record<string, MessageDescriptor> = {
  add: msg`Add`,
  edit: msg`Edit`,
  del: msg`Delete`,
  sortable: msg`Sort`,
  restore: msg`Restore`,
  import: msg`Import`,
  install: msg`Install`,
  uninstall: msg`Uninstall`,
  enable: msg`Enable`,
  disable: msg`Disable`,
  settings: msg`Settings`,
  upload: msg`Upload`,
  generate: msg`Generate`,
  login: msg`Log in`,
  loginFailed: msg`Failed login`,
};

/** A stored "Title / action" in the reader's language (`t`), each part that is known translated. */
export function logTitleIn(stored: string, t: (m: MessageDescriptor) => string): string {
  const cut = stored.lastIndexOf(" / ");
  if (cut < 0) return titles.has(stored) ? t(titles.get(stored)!) : stored;
  const what = stored.slice(0, cut);
  const action = stored.slice(cut + 3);
  const title = titles.get(what);
  const act = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  return `${title ? t(title) : what} / ${act ? t(act) : action}`;
}

/** Back-office logins, admin_log's title for them ("Account / Log in", "Account / Failed login"). */
export const LOGIN_LOG = { title: logTitle(msg`Account`) };

/**
 * One admin log row for a write through the back office, in the write's transaction; `actor` is
 * the admin who acted (default the request's; a login names the account it was for, id 0 when
 * no admin has that username).
 */
export async function writeAdminLog(
  tx: Queryable,
  req: FastifyRequest,
  def: Pick<ResourceDef, "title">,
  action: string,
  actor: { id: number; username: string } = req.admin!,
): Promise<void> {
  const title = `${translator("en")(logTitle(def.title))} / ${action}`;
  const data = scrub({ query: req.query ?? {}, body: req.body ?? {} });
  const useragent = String(req.headers["user-agent"] ?? "").slice(0, 500);
  await insertAdminLog(tx, {
    adminId: actor.id,
    username: actor.username.slice(0, 64),
    title,
    url: req.url.split("?")[0]!.slice(0, 500),
    method: req.method,
    data: JSON.stringify(data),
    ip: req.ip,
    useragent,
  });
}
