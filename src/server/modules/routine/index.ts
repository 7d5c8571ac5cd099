import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { clearCacheBody, configEdit, configValues, SECRET_KEYS, testMailBody, testSmsBody, type ConfigValues, type ConfigView, type StorageView } from "../../../shared/admin/routine.ts";
import { jsonBody } from "../../../shared/schema.ts";
import {
  configGroupAdd,
  configGroupDel,
  configItemAdd,
  configItemDel,
  emptyValue,
  itemShapeProblem,
  itemValueProblem,
  type ConfigGroupView,
  type ConfigItemView,
} from "../../../shared/admin/configItems.ts";
import { logTitle, writeAdminLog } from "../../crud/log.ts";
import { ApiError } from "../../errors.ts";
import { getCountSetting, getSettings, SETTING_KEYS } from "../../settings.ts";
import { forgetCourseMedia } from "../course/mediaAccess.ts";
import { forgetMailSettings } from "./mail.ts";
import { SmsFailure } from "./sms.ts";
import {
  configGroupExists,
  configGroupRows,
  configItemRows,
  configItemsForUpdate,
  deleteConfigGroup,
  deleteConfigItem,
  insertConfigGroup,
  insertConfigItem,
  saveConfigItemValue,
  saveSiteSetting,
  siteSettingExists,
  type ConfigItemRow,
} from "./repository.ts";

/**
 * The back office's config screen (`/admin/routine/config/index|edit`, site settings by group,
 * a test email) and `POST /admin/ajax/clearCache` (SPEC §7). Settings are read per request
 * where they are used (site config, upload rules, login captcha switches), so a saved change
 * applies to the next request; the caches that remain (the mail transport made from the
 * settings, the index of lesson media files) are dropped on a save and by clearCache.
 */

const KEYS = Object.keys(configValues.shape) as (keyof ConfigValues)[];
const title = logTitle(msg`Config`);

/** Names an added item may not take: every key code reads, and what the screen's answer uses itself. */
const RESERVED = new Set<string>([...SETTING_KEYS, ...KEYS, ...Object.values(SECRET_KEYS)]);

const itemView = (row: ConfigItemRow): ConfigItemView => ({
  name: row.name,
  group: row.group,
  title: row.title,
  type: row.type as ConfigItemView["type"],
  value: row.value as ConfigItemView["value"],
  options: Array.isArray(row.options) ? (row.options as ConfigItemView["options"]) : [],
  rules: Array.isArray(row.rules) ? (row.rules as ConfigItemView["rules"]) : [],
  tip: row.tip,
});

export async function routineRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();

  const clearCaches = (type: "all" | "tp" | "config") => {
    forgetMailSettings();
    if (type !== "config") forgetCourseMedia(db);
  };

  // The environment's storage: the bucket and where it is, never the keys.
  const storage: StorageView = config.s3
    ? { kind: "s3", bucket: config.s3.bucket, region: config.s3.region, endpoint: config.s3.endpoint ?? "", prefix: config.s3.prefix }
    : { kind: "local" };

  api.get("/admin/routine/config/index", { config: { adminRule: "routine/config/index" } }, async (_req, reply) => {
    const { mail_password, sms_token, ...values } = await getSettings(db, KEYS);
    // The upload limits as they apply (a stored value that is not a count falls back to its default).
    const [rate, quota] = await Promise.all([getCountSetting(db, "upload_rate_per_minute"), getCountSetting(db, "upload_quota_mib")]);
    const view: ConfigView = {
      ...values,
      site_name: values.site_name || config.siteName,
      upload_rate_per_minute: rate,
      upload_quota_mib: quota,
      mail_password_set: mail_password !== "",
      sms_token_set: sms_token !== "",
    };
    const groups: ConfigGroupView[] = (await configGroupRows(db)).map(({ name, title, builtin }) => ({ name, title, builtin }));
    const items = (await configItemRows(db)).map(itemView);
    return reply.success({ config: view, storage, groups, items });
  });

  api.post("/admin/routine/config/edit", { config: { adminRule: "routine/config/edit" }, schema: { body: jsonBody(configEdit) } }, async (req, reply) => {
    const builtin = new Set<string>(KEYS);
    const entries = Object.entries(req.body).filter(([, value]) => value !== undefined);
    // A secret left empty keeps the stored one (the screen never has it).
    const changes = entries.filter(([key, value]) => builtin.has(key) && !(key in SECRET_KEYS && value === ""));
    const added = entries.filter(([key]) => !builtin.has(key));
    await db.transaction(async (tx) => {
      // Added items' values: each checked against its item's type and rules, all or nothing.
      if (added.length > 0) {
        const items = new Map((await configItemsForUpdate(tx, added.map(([key]) => key))).map((row) => [row.name, itemView(row)]));
        const fields: Record<string, string> = {};
        let first: ApiError | null = null;
        for (const [key, value] of added) {
          const item = items.get(key);
          const problem = item ? itemValueProblem(item, value) : msg`There is no setting named ${key}`;
          if (problem) {
            fields[key] = req.t(problem);
            first ??= new ApiError(problem);
          }
        }
        if (first) throw new ApiError(first.msgDescriptor, 0, { fields });
      }
      for (const [key, value] of changes) {
        await saveSiteSetting(tx, key, value);
      }
      for (const [key, value] of added) {
        await saveConfigItemValue(tx, key, value);
      }
      await writeAdminLog(tx, req, { title }, "edit");
    });
    clearCaches("config");
    return reply.success(null, msg`Updated successfully`);
  });

  api.post("/admin/routine/config/addGroup", { config: { adminRule: "routine/config/add" }, schema: { body: jsonBody(configGroupAdd) } }, async (req, reply) => {
    const { name, title: groupTitle } = req.body;
    await db.transaction(async (tx) => {
      if (!(await insertConfigGroup(tx, name, groupTitle))) throw new ApiError(msg`A group named ${name} already exists`, 0, { fields: { name: req.t(msg`A group named ${name} already exists`) } });
      await writeAdminLog(tx, req, { title }, "add");
    });
    return reply.success(null, msg`Added successfully`);
  });

  api.post("/admin/routine/config/delGroup", { config: { adminRule: "routine/config/del" }, schema: { body: jsonBody(configGroupDel) } }, async (req, reply) => {
    await db.transaction(async (tx) => {
      const outcome = await deleteConfigGroup(tx, req.body.name);
      if (outcome === "missing") throw new ApiError(msg`There is no such group`);
      if (outcome === "builtin") throw new ApiError(msg`A built-in group cannot be deleted`);
      if (outcome === "used") throw new ApiError(msg`The group still has items: delete them first`);
      await writeAdminLog(tx, req, { title }, "del");
    });
    return reply.success(null, msg`Deleted successfully`);
  });

  api.post("/admin/routine/config/add", { config: { adminRule: "routine/config/add" }, schema: { body: jsonBody(configItemAdd) } }, async (req, reply) => {
    const item = req.body;
    const refuse = (field: string, message: ReturnType<typeof itemShapeProblem> & object): never => {
      throw new ApiError(message, 0, { fields: { [field]: req.t(message) } });
    };
    const name = item.name;
    if (RESERVED.has(name)) refuse("name", msg`${name} is a built-in setting: please choose another name`);
    const shape = itemShapeProblem(item);
    if (shape) refuse(item.type === "select" ? "options" : "rules", shape);
    const value = item.value ?? emptyValue(item.type);
    const problem = itemValueProblem(item, value, true);
    if (problem) refuse("value", problem);
    await db.transaction(async (tx) => {
      if (await siteSettingExists(tx, name)) refuse("name", msg`${name} is a built-in setting: please choose another name`);
      if (!(await configGroupExists(tx, item.group))) refuse("group", msg`There is no such group`);
      if (!(await insertConfigItem(tx, { ...item, value }))) refuse("name", msg`An item named ${name} already exists`);
      await writeAdminLog(tx, req, { title }, "add");
    });
    return reply.success(null, msg`Added successfully`);
  });

  api.post("/admin/routine/config/del", { config: { adminRule: "routine/config/del" }, schema: { body: jsonBody(configItemDel) } }, async (req, reply) => {
    const name = req.body.name;
    if (RESERVED.has(name)) throw new ApiError(msg`Built-in settings cannot be deleted`);
    await db.transaction(async (tx) => {
      if (!(await deleteConfigItem(tx, name))) throw new ApiError(msg`There is no such item`);
      await writeAdminLog(tx, req, { title }, "del");
    });
    return reply.success(null, msg`Deleted successfully`);
  });

  api.post("/admin/routine/config/sendTestMail", { config: { adminRule: "routine/config/edit", rateLimit: { max: 5, timeWindow: "1 minute" } }, schema: { body: jsonBody(testMailBody) } }, async (req, reply) => {
    const { site_name } = await getSettings(db, ["site_name"]);
    const site = site_name || config.siteName;
    let delivery: void | "outbox";
    try {
      delivery = await app.sender.send({
        channel: "email",
        target: req.body.to,
        subject: req.t(msg`Test email from ${site}`),
        body: req.t(msg`This is a test email: the mail settings of ${site} work.`),
      });
    } catch (error) {
      // The server's own words may name hosts and users: logged, not shown.
      req.log.warn({ err: { code: (error as { code?: unknown }).code, message: (error as Error).message } }, "test email failed");
      throw new ApiError(msg`The test email could not be sent: please check the mail settings`);
    }
    // Without a mail server the message only reached the outbox table: saying "sent" would mislead.
    if (delivery === "outbox") {
      return reply.success({ sender: app.sender.name, delivery: "outbox" }, msg`No mail server is set: the test email was not sent but kept in the outbox table (outbox_message)`);
    }
    return reply.success({ sender: app.sender.name, delivery: "sent" }, msg`The test email was sent`);
  });

  // The SMS settings as saved: "sent" (the provider answered 2xx), "outbox" (none is set), or
  // the provider's failure in words staff can act on (never the token nor the answer's body).
  api.post("/admin/routine/config/sendTestSms", { config: { adminRule: "routine/config/edit", rateLimit: { max: 5, timeWindow: "1 minute" } }, schema: { body: jsonBody(testSmsBody) } }, async (req, reply) => {
    const { site_name } = await getSettings(db, ["site_name"]);
    const site = site_name || config.siteName;
    let delivery: void | "outbox";
    try {
      delivery = await app.sender.send({ channel: "mobile", target: req.body.mobile, subject: req.t(msg`Test text message`), body: req.t(msg`This is a test text message from ${site}.`) });
    } catch (error) {
      if (error instanceof SmsFailure) throw new ApiError(msg`The test text message was not sent: ${req.t(error.reason)}`);
      throw new ApiError(msg`The test text message could not be sent: please check the SMS settings`);
    }
    if (delivery === "outbox") {
      return reply.success({ delivery: "outbox" }, msg`No SMS provider is set: the test text message was not sent but kept in the outbox table (outbox_message)`);
    }
    return reply.success({ delivery: "sent" }, msg`The test text message was sent`);
  });

  api.post("/admin/ajax/clearCache", { config: { adminRule: "routine/config/edit" }, schema: { body: jsonBody(clearCacheBody) } }, async (req, reply) => {
    clearCaches(req.body.type);
    return reply.success(null, msg`Cache cleared`);
  });
}
