import { i18n } from "@lingui/core";
import { DEFAULT_LANGUAGE, resolveLanguage, type Language } from "../../shared/constants.ts";

export const LANGUAGE_STORAGE_KEY = "lang";

/** The stored choice, else zh-cn (SPEC §9: default and fallback zh-cn). */
export function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return stored ? resolveLanguage(stored) : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
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
  localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  window.location.reload();
}

export { i18n };
