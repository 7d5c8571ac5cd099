import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { clearCacheBody, configEdit, configValues, testMailBody, type ConfigValues, type ConfigView } from "../../../shared/admin/routine.ts";
import { jsonBody } from "../../../shared/schema.ts";
import { logTitle, writeAdminLog } from "../../crud/log.ts";
import { ApiError } from "../../errors.ts";
import { getSettings } from "../../settings.ts";
import { forgetCourseMedia } from "../course/mediaAccess.ts";
import { forgetMailSettings } from "./mail.ts";
import { saveSiteSetting } from "./repository.ts";

/**
 * The back office's config screen (`/admin/routine/config/index|edit`, site settings by group,
 * a test email) and `POST /admin/ajax/clearCache` (SPEC §7). Settings are read per request
 * where they are used (site config, upload rules, login captcha switches), so a saved change
 * applies to the next request; the caches that remain (the mail transport made from the
 * settings, the index of lesson media files) are dropped on a save and by clearCache.
 */

const KEYS = Object.keys(configValues.shape) as (keyof ConfigValues)[];
const title = logTitle(msg`Config`);

export async function routineRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();

  const clearCaches = (type: "all" | "tp" | "config") => {
    forgetMailSettings();
    if (type !== "config") forgetCourseMedia(db);
  };

  api.get("/admin/routine/config/index", { config: { adminRule: "routine/config/index" } }, async (_req, reply) => {
    const { mail_password, ...values } = await getSettings(db, KEYS);
    const view: ConfigView = { ...values, site_name: values.site_name || config.siteName, mail_password_set: mail_password !== "" };
    return reply.success({ config: view });
  });

  api.post("/admin/routine/config/edit", { config: { adminRule: "routine/config/edit" }, schema: { body: jsonBody(configEdit) } }, async (req, reply) => {
    const changes = Object.entries(req.body).filter(([key, value]) => value !== undefined && !(key === "mail_password" && value === ""));
    await db.transaction(async (tx) => {
      for (const [key, value] of changes) {
        await saveSiteSetting(tx, key, value);
      }
      await writeAdminLog(tx, req, { title }, "edit");
    });
    clearCaches("config");
    return reply.success(null, msg`Updated successfully`);
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
      return reply.success({ sender: app.sender.name }, msg`No mail server is set: the test email was not sent but kept in the outbox table (outbox_message)`);
    }
    return reply.success({ sender: app.sender.name }, msg`The test email was sent`);
  });

  api.post("/admin/ajax/clearCache", { config: { adminRule: "routine/config/edit" }, schema: { body: jsonBody(clearCacheBody) } }, async (req, reply) => {
    clearCaches(req.body.type);
    return reply.success(null, msg`Cache cleared`);
  });
}
