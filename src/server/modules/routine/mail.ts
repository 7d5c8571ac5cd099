import { getSettings } from "../../settings.ts";
import type { Queryable } from "../../db/index.ts";
import { addDeliveries, sendEach, smtpSender, type MessageSender } from "../../auth/senders.ts";

/**
 * Email through the mail server of the site settings (the config screen) when one is set, else
 * through `fallback` (the SMTP_* environment, or the outbox table). The transport made from the
 * settings is kept until they change (`forgetMailSettings`: a config edit, clearCache).
 */

const MAIL_KEYS = ["mail_host", "mail_port", "mail_secure", "mail_user", "mail_password", "mail_from"] as const;

let cached: { key: string; sender: MessageSender } | null = null;

/** Drops the kept transport: the next email reads the settings again. */
export function forgetMailSettings(): void {
  cached = null;
}

export function settingsMailSender(db: Queryable, fallback: MessageSender): MessageSender {
  /** The sender email goes through now: the settings' mail server, or the fallback. */
  const current = async (): Promise<MessageSender> => {
    const s = await getSettings(db, MAIL_KEYS);
    if (!s.mail_host) return fallback;
    const key = JSON.stringify(s);
    if (cached?.key !== key) {
      const from = s.mail_from || s.mail_user || `no-reply@${s.mail_host}`;
      cached = {
        key,
        sender: smtpSender({ host: s.mail_host, port: s.mail_port, secure: s.mail_secure, ...(s.mail_user ? { user: s.mail_user, pass: s.mail_password } : {}), from }, fallback),
      };
    }
    return cached.sender;
  };
  return {
    name: "settings",
    async send(message) {
      if (message.channel !== "email") return fallback.send(message);
      return (await current()).send(message);
    },
    async sendMany(messages, onError) {
      const emails = messages.filter((m) => m.channel === "email");
      const others = messages.filter((m) => m.channel !== "email");
      return addDeliveries(await sendEach(await current(), emails, onError), await sendEach(fallback, others, onError));
    },
  };
}
