import { i18n, type Messages } from "@lingui/core";
import type { Language } from "../../shared/constants.ts";
import { useConfig } from "../stores/config.ts";

/** The stored choice (config store), zh-cn by default (SPEC §9: default and fallback zh-cn). */
export function storedLanguage(): Language {
  return useConfig.getState().lang.defaultLang;
}

/**
 * The client's catalogs (lingui.config.ts), one lazy chunk per locale each: client (the first
 * screens, with the language's activation), common, member and admin (loaded as their screens
 * and parts are reached).
 */
const catalogs = {
  client: { en: () => import("../../../locales/en/client.po"), "zh-cn": () => import("../../../locales/zh-cn/client.po") },
  common: { en: () => import("../../../locales/en/common.po"), "zh-cn": () => import("../../../locales/zh-cn/common.po") },
  member: { en: () => import("../../../locales/en/member.po"), "zh-cn": () => import("../../../locales/zh-cn/member.po") },
  admin: { en: () => import("../../../locales/en/admin.po"), "zh-cn": () => import("../../../locales/zh-cn/admin.po") },
} satisfies Record<string, Record<Language, () => Promise<{ messages: Messages }>>>;

type Area = "common" | "member" | "admin";

/** The area catalogs this page has asked for: a language change loads them in the new language. */
const loadedAreas = new Set<Area>();

function activate(language: Language): void {
  i18n.activate(language);
  document.documentElement.lang = language === "en" ? "en" : "zh-CN";
}

/** Loads a language's client catalog and activates it. */
export async function activateLanguage(language: Language): Promise<void> {
  const { messages } = await catalogs.client[language]();
  // Merged, not replaced: the router starts loading the first screen (and its area's catalog)
  // before this resolves.
  i18n.load(language, messages);
  activate(language);
}

/**
 * Merges an area's catalog into the stored language's (activateLanguage's choice: this may run
 * before that has, on a first load of a deep link, since the router starts loading a screen at once).
 * A member never downloads the admin catalog; a first visit to a login page downloads neither.
 */
async function loadAreaCatalog(area: Area): Promise<void> {
  loadedAreas.add(area);
  const language = storedLanguage();
  const { messages } = await catalogs[area][language]();
  i18n.load(language, messages);
}

/**
 * What both areas share beyond the first screens (the request layer's messages, dialogs, the
 * image previewer, the sync status...): loaded with the member and admin catalogs, and with
 * every part a first screen loads later (withCommonCatalog).
 */
export const loadCommonCatalog = (): Promise<void> => loadAreaCatalog("common");

/**
 * A module a first screen loads later (a dialog, the request layer, the account menu): its chunk
 * and the common catalog load together, so it never shows a message before its text is there.
 * tests/shared/catalog-areas.test.ts checks every such import() goes through this.
 */
export const withCommonCatalog =
  <T>(load: () => Promise<T>) =>
  async (): Promise<T> =>
    (await Promise.all([load(), loadCommonCatalog()]))[0];

/** The member's own screens' catalog (src/client/features but login, src/client/user), loaded with their routes, with the common catalog. */
export const loadMemberCatalog = (): Promise<void> => Promise.all([loadAreaCatalog("member"), loadCommonCatalog()]).then(() => undefined);

/**
 * The back office's catalog, loaded with its layout; with the member catalog, since the back
 * office shows member parts too (the question editor's preview). The admin login page's
 * messages are in the client catalog.
 */
export const loadAdminCatalog = (): Promise<void> => Promise.all([loadAreaCatalog("admin"), loadMemberCatalog()]).then(() => undefined);

/**
 * SPEC §1: changing the language stores the choice and reloads the page, here without reloading
 * the document (which took about 4 s and dropped what a screen held): the catalogs this page has
 * loaded come in the new language, then it is activated, and every screen renders again in it
 * (MessagesProvider); what the server translated (menus, the queries' data) is asked for again by
 * whoever holds it (onLanguageChange). A catalog that fails to load (offline, and not cached)
 * leaves the language as it was and rejects.
 */
export async function changeLanguage(language: Language): Promise<void> {
  if (language === i18n.locale) return;
  const loads = [catalogs.client[language](), ...[...loadedAreas].map((area) => catalogs[area][language]())];
  const loaded = await Promise.all(loads);
  useConfig.getState().setLang(language);
  for (const { messages } of loaded) i18n.load(language, messages);
  activate(language);
}

/**
 * Calls `listener` each time the interface language changes after the first (changeLanguage),
 * not when a catalog is merged in; returns the unsubscribe.
 */
export function onLanguageChange(listener: (language: Language) => void): () => void {
  let locale = i18n.locale;
  return i18n.on("change", () => {
    if (i18n.locale === locale) return;
    locale = i18n.locale;
    listener(locale as Language);
  });
}

export { i18n };
