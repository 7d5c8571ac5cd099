import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { safeText, withMessage } from "../schema.ts";
import { parseSize } from "../upload.ts";
import { MOBILE_REGEX } from "../validation.ts";

/**
 * The back office's "Routine" screens: the site config by group (`GET /admin/routine/config/index`,
 * `POST /admin/routine/config/edit`), the test email, and the cache clearing of SPEC §7. Shared by
 * the server's routes and the client's config form.
 */

/** The groups of the config screen, each saved on its own. */
export const CONFIG_GROUPS = ["basic", "upload", "login", "mail", "sms"] as const;
export type ConfigGroup = (typeof CONFIG_GROUPS)[number];

/** The largest upload the config may allow (the multipart parser streams it to disk). */
export const MAX_UPLOAD_BYTES = 1024 ** 3;

/** Bounds of the member upload limits: at least one upload a minute and 1 MiB (0 would refuse every upload with a misleading message), at most 1000 a minute and 1 TiB. */
export const MAX_UPLOADS_PER_MINUTE = 1000;
export const MAX_UPLOAD_QUOTA_MIB = 1024 * 1024;

const sizeText = z.string().max(20).refine((value) => {
  try {
    const bytes = parseSize(value);
    return bytes >= 1024 && bytes <= MAX_UPLOAD_BYTES;
  } catch {
    return false;
  }
});
/** Extensions, MIME types, `type/*` or `*`, comma-separated. */
const typeList = z.string().max(500).regex(/^\s*(\*|[A-Za-z0-9.+\-/*]+)(\s*,\s*[A-Za-z0-9.+\-/*]+)*\s*$/);
const host = z.string().max(255).regex(/^$|^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/);
const blankOrEmail = z.union([z.literal(""), z.email().max(100)]);
/** The SMS provider's address: http or https ("" while none is set). */
const blankOrHttpUrl = z
  .string()
  .max(500)
  .refine((text) => text === "" || /^https?:\/\/[^\s/?#]+/i.test(text));
/** Extra request headers, one `Name: value` a line. */
export const SMS_HEADER_LINE = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+:[^\r\n]*$/;
const headerLines = z
  .string()
  .max(2000)
  .refine((text) => text.split("\n").every((line) => line.trim() === "" || SMS_HEADER_LINE.test(line.trim())));
/** How the provider is asked. */
export const SMS_METHODS = ["POST", "PUT", "GET"] as const;

export const configValues = z.object({
  site_name: withMessage(safeText(60).trim().min(1), msg`Please enter the site name (at most 60 characters)`),
  record_number: withMessage(safeText(60).trim(), msg`The record number is at most 60 characters`),
  upload_mode: withMessage(z.literal("local"), msg`Please choose the storage mode`),
  upload_maxsize: withMessage(sizeText, msg`Please enter a size from 1kb to 1gb, such as 10mb`),
  upload_mimetype: withMessage(typeList, msg`Please enter file types separated by commas, such as jpg,png,pdf or *`),
  upload_rate_per_minute: withMessage(z.number().int().min(1).max(MAX_UPLOADS_PER_MINUTE), msg`Please enter a whole number of uploads from 1 to 1000`),
  upload_quota_mib: withMessage(z.number().int().min(1).max(MAX_UPLOAD_QUOTA_MIB), msg`Please enter a whole number of MiB from 1 to 1048576`),
  user_login_captcha: withMessage(z.boolean(), msg`Please choose on or off`),
  admin_login_captcha: withMessage(z.boolean(), msg`Please choose on or off`),
  mail_host: withMessage(host, msg`Please enter the correct server address`),
  mail_port: withMessage(z.number().int().min(1).max(65535), msg`Please enter a port from 1 to 65535`),
  mail_secure: withMessage(z.boolean(), msg`Please choose on or off`),
  mail_user: withMessage(safeText(100).trim(), msg`The user name is at most 100 characters`),
  /** Write-only: "" keeps the stored password; the server answers only whether one is set. */
  mail_password: withMessage(safeText(200).optional(), msg`The password is at most 200 characters`),
  mail_from: withMessage(blankOrEmail, msg`Please enter the correct email address`),
  sms_enabled: withMessage(z.boolean(), msg`Please choose on or off`),
  sms_url: withMessage(blankOrHttpUrl, msg`Please enter an http or https address`),
  sms_method: withMessage(z.enum(SMS_METHODS), msg`Please choose the request method`),
  sms_headers: withMessage(headerLines, msg`Please enter one header a line, such as X-Api-Key: abc`),
  /** Write-only, as mail_password: "" keeps the stored token. */
  sms_token: withMessage(safeText(500).optional(), msg`The token is at most 500 characters`),
  sms_body: withMessage(z.string().max(2000), msg`The body template is at most 2000 characters`),
  sms_timeout: withMessage(z.number().int().min(1).max(60), msg`Please enter a whole number of seconds from 1 to 60`),
});
export type ConfigValues = z.infer<typeof configValues>;

/** The keys of each group. */
export const CONFIG_KEYS: Record<ConfigGroup, readonly (keyof ConfigValues)[]> = {
  basic: ["site_name", "record_number"],
  upload: ["upload_mode", "upload_maxsize", "upload_mimetype", "upload_rate_per_minute", "upload_quota_mib"],
  login: ["user_login_captcha", "admin_login_captcha"],
  mail: ["mail_host", "mail_port", "mail_secure", "mail_user", "mail_password", "mail_from"],
  sms: ["sms_enabled", "sms_url", "sms_method", "sms_headers", "sms_token", "sms_body", "sms_timeout"],
};

/** The write-only settings: the screen gets only whether each is set. */
export const SECRET_KEYS = { mail_password: "mail_password_set", sms_token: "sms_token_set" } as const;

/**
 * `POST edit`: any of the values (one group at a time from the screen); at least one. Other keys
 * are the values of items added on the screen (configItems.ts), checked by the server against
 * each item's type and rules; a key that is neither is refused.
 */
export const configEdit = configValues
  .partial()
  .catchall(z.unknown())
  .refine((body) => Object.keys(body).length > 0, { message: "empty" });
export type ConfigEdit = z.infer<typeof configEdit>;

/** What `GET index` answers: the values, each secret replaced by whether it is set. */
export type ConfigView = Omit<ConfigValues, keyof typeof SECRET_KEYS> & { mail_password_set: boolean; sms_token_set: boolean };

/**
 * Where uploaded files go, as the server's environment set it (STORAGE, S3_*): shown read-only
 * beside the upload settings. Never a credential.
 */
export type StorageView = { kind: "local" } | { kind: "s3"; bucket: string; region: string; endpoint: string; prefix: string };

export const testMailBody = z.object({
  to: withMessage(z.email().max(100), msg`Please enter the correct email address`),
});

export const testSmsBody = z.object({
  mobile: withMessage(z.string().trim().regex(MOBILE_REGEX), msg`Please enter the correct mobile number`),
});

/** SPEC §7 clearCache types: `all` or `tp` (the server's caches), `config` (the settings only). */
export const CLEAR_CACHE_TYPES = ["all", "tp", "config"] as const;
export const clearCacheBody = z.object({
  type: withMessage(z.enum(CLEAR_CACHE_TYPES), msg`Please choose what to clear`),
});
