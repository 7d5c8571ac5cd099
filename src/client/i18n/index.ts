import { i18n } from "@lingui/core";
import type { Language } from "../../shared/constants.ts";
import { useConfig } from "../stores/config.ts";

/** The stored choice (config store), zh-cn by default (SPEC §9: default and fallback zh-cn). */
export function storedLanguage(): Language {
  return useConfig.getState().lang.defaultLang;
}

/** Loads a language's client catalog (one lazy chunk per locale) and activates it. */
export async function activateLanguage(language: Language): Promise<void> {
  const { messages } =
    language === "en"
      ? await import("../../../locales/en/client.po")
      : await import("../../../locales/zh-cn/client.po");
  // Merged, not replaced: the router starts loading the first screen (and, under /admin, the
  // admin catalog) before this resolves.
  i18n.load(language, messages);
  i18n.activate(language);
  document.documentElement.lang = language === "en" ? "en" : "zh-CN";
}

/**
 * The back office's own catalog (its screens' messages; lingui.config.ts), merged into the
 * active language's when the admin area opens: a member never downloads it. The admin login
 * page's messages are in the client catalog.
 */
export async function loadAdminCatalog(): Promise<void> {
  // The stored choice, as activateLanguage's: this may run before that has (a first load of an /admin page).
  const language = storedLanguage();
  const { messages } =
    language === "en"
      ? await import("../../../locales/en/admin.po")
      : await import("../../../locales/zh-cn/admin.po");
  i18n.load(language, messages);
}

/** SPEC §1: changing the language stores the choice and reloads the page. */
export function changeLanguage(language: Language): void {
  useConfig.getState().setLang(language);
  window.location.reload();
}

export { i18n };
