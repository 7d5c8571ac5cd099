import type { Queryable } from "./db/index.ts";

/** Site settings stored as JSON values (table site_setting), with typed defaults. */
export interface SiteSettings {
  user_login_captcha: boolean;
  admin_login_captcha: boolean;
  account_verification_type: ("email" | "mobile")[];
  /** Uploads a member may store per minute (sliding 60 s; admins are not limited). */
  upload_rate_per_minute: number;
  /** Storage a member's uploads may take, MiB (each stored file counted once per member). */
  upload_quota_mib: number;
}

const defaults: SiteSettings = {
  user_login_captcha: false,
  admin_login_captcha: false,
  account_verification_type: ["email", "mobile"],
  upload_rate_per_minute: 10,
  upload_quota_mib: 100,
};

/** A numeric setting that must be a whole number >= 0: anything else stored falls back to the default. */
export async function getCountSetting(db: Queryable, key: "upload_rate_per_minute" | "upload_quota_mib"): Promise<number> {
  const value: unknown = await getSetting(db, key);
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : defaults[key];
}

export async function getSetting<K extends keyof SiteSettings>(db: Queryable, key: K): Promise<SiteSettings[K]> {
  const { rows } = await db.query<{ value: SiteSettings[K] }>("select value from site_setting where key = $1", [key]);
  return rows[0]?.value ?? defaults[key];
}

export async function setSetting<K extends keyof SiteSettings>(db: Queryable, key: K, value: SiteSettings[K]): Promise<void> {
  await db.query(
    "insert into site_setting (key, value) values ($1, $2::jsonb) on conflict (key) do update set value = excluded.value",
    [key, JSON.stringify(value)],
  );
}
