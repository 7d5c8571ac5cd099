import { i18n } from "@lingui/core";
import type { Language } from "../../shared/constants.ts";
import { useConfig } from "../stores/config.ts";

/** The stored choice (config store), zh-cn by default (SPEC §9: default and fallback zh-cn). */
export function storedLanguage(): Language {
  return useConfig.getState().lang.defaultLang;
}

/** Loads a language's catalog (one lazy chunk per locale) and activates it. */
export async function activateLanguage(language: Language): Promise<void> {
  const { messages } =
    language === "en"
      ? await import("../../../locales/en/client.po")
      : await import("../../../locales/zh-cn/client.po");
  i18n.loadAndActivate({ locale: language, messages });
  document.documentElement.lang = language === "en" ? "en" : "zh-CN";
}

/** SPEC §1: changing the language stores the choice and reloads the page. */
export function changeLanguage(language: Language): void {
  useConfig.getState().setLang(language);
  window.location.reload();
}

export { i18n };
