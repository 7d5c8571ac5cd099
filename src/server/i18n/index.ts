import { setupI18n, type I18n, type MessageDescriptor } from "@lingui/core";
import { resolveLanguage, type Language } from "../../shared/constants.ts";
import { messages as zhCn } from "../../../locales/zh-cn/server.po";
import { messages as en } from "../../../locales/en/server.po";

/** One Lingui instance per language for API messages (chosen by the `think-lang` header). */
const instances: Record<Language, I18n> = {
  "zh-cn": setupI18n({ locale: "zh-cn", messages: { "zh-cn": zhCn } }),
  en: setupI18n({ locale: "en", messages: { en } }),
};

export type Translate = (message: MessageDescriptor | string) => string;

export function translator(language: unknown): Translate {
  const i18n = instances[resolveLanguage(language)];
  return (message) => (typeof message === "string" ? message : i18n._(message));
}

export type { Language };
