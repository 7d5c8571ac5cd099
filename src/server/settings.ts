import type { Queryable } from "./db/index.ts";
import { saveSetting, settingRows, settingValue } from "./settings.repository.ts";
import { DEFAULT_PACKAGE_MANAGER, DEFAULT_TERMINAL_PORT, type PackageManager } from "../shared/terminal.ts";

/** Site settings stored as JSON values (table site_setting), with typed defaults. */
export interface SiteSettings {
  user_login_captcha: boolean;
  admin_login_captcha: boolean;
  account_verification_type: ("email" | "mobile")[];
  /** Uploads a member may store per minute (sliding 60 s; admins are not limited). */
  upload_rate_per_minute: number;
  /** Storage a member's uploads may take, MiB (each stored file counted once per member). */
  upload_quota_mib: number;
  /** The config screen's keys (src/shared/admin/routine.ts); site_name "" means SITE_NAME. */
  site_name: string;
  record_number: string;
  upload_mode: "local";
  upload_maxsize: string;
  upload_mimetype: string;
  /** Mail server ("" host: the SMTP_* environment, else the outbox table). */
  mail_host: string;
  mail_port: number;
  mail_secure: boolean;
  mail_user: string;
  mail_password: string;
  mail_from: string;
  /** Text messages through an HTTP provider (off, or "" url: the outbox table); see modules/routine/sms.ts. */
  sms_enabled: boolean;
  sms_url: string;
  sms_method: "POST" | "PUT" | "GET";
  sms_headers: string;
  /** Write-only: sent as `Authorization: Bearer`, never answered nor logged. */
  sms_token: string;
  sms_body: string;
  sms_timeout: number;
  /** The terminal's package manager and the port it reports (POST /admin/ajax/changeTerminalConfig). */
  terminal_package_manager: PackageManager;
  terminal_port: number;
}

const defaults: SiteSettings = {
  user_login_captcha: false,
  admin_login_captcha: false,
  account_verification_type: ["email", "mobile"],
  upload_rate_per_minute: 10,
  upload_quota_mib: 100,
  site_name: "",
  record_number: "",
  upload_mode: "local",
  upload_maxsize: "10mb",
  upload_mimetype: "jpg,png,bmp,jpeg,gif,webp,zip,rar,xls,xlsx,doc,docx,wav,mp4,webm,mp3,txt,pdf",
  mail_host: "",
  mail_port: 465,
  mail_secure: true,
  mail_user: "",
  mail_password: "",
  mail_from: "",
  sms_enabled: false,
  sms_url: "",
  sms_method: "POST",
  sms_headers: "",
  sms_token: "",
  sms_body: '{"mobile": "{mobile}", "text": "{text}"}',
  sms_timeout: 10,
  terminal_package_manager: DEFAULT_PACKAGE_MANAGER,
  terminal_port: DEFAULT_TERMINAL_PORT,
};

/** Every key of the site settings: code reads them, so none may be taken by an item added on the config screen. */
export const SETTING_KEYS = Object.keys(defaults) as (keyof SiteSettings)[];

/** Several settings in one query, each falling back to its default. */
export async function getSettings<K extends keyof SiteSettings>(db: Queryable, keys: readonly K[]): Promise<Pick<SiteSettings, K>> {
  const rows = await settingRows(db, keys);
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  return Object.fromEntries(keys.map((k) => [k, stored.has(k) ? stored.get(k) : defaults[k]])) as Pick<SiteSettings, K>;
}

/** A numeric setting that must be a whole number >= 0: anything else stored falls back to the default. */
export async function getCountSetting(db: Queryable, key: "upload_rate_per_minute" | "upload_quota_mib"): Promise<number> {
  const value: unknown = await getSetting(db, key);
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : defaults[key];
}

export async function getSetting<K extends keyof SiteSettings>(db: Queryable, key: K): Promise<SiteSettings[K]> {
  return ((await settingValue(db, key)) as SiteSettings[K] | undefined) ?? defaults[key];
}

export async function setSetting<K extends keyof SiteSettings>(db: Queryable, key: K, value: SiteSettings[K]): Promise<void> {
  await saveSetting(db, key, JSON.stringify(value));
}
