import { expect, type Page } from "@playwright/test";
import type { AdminLang } from "./adminCrud.ts";

/** The login forms' copy, once per language. */
const COPY = {
  "zh-cn": { username: "用户名", password: "密码", submit: "登录" },
  en: { username: "Username", password: "Password", submit: "Log in" },
} as const;

/**
 * Logs an admin in through `/admin/login` (admin / admin123456 by default) in the page's language
 * (zh-cn, the app's default; `lang: "en"` stores English first) and waits until the back office
 * has opened (`landing`, by default any page that is not the login or the loader).
 */
export async function logInAdmin(
  page: Page,
  { username = "admin", password = "admin123456", lang = "zh-cn", landing = /\/admin\/(?!login|loading)/ }: { username?: string; password?: string; lang?: AdminLang; landing?: RegExp } = {},
): Promise<void> {
  if (lang === "en") {
    await page.addInitScript(() => {
      if (!localStorage.getItem("storeConfig")) localStorage.setItem("storeConfig", JSON.stringify({ state: { lang: { defaultLang: "en" } }, version: 0 }));
    });
  }
  const label = COPY[lang];
  await page.goto("/admin/login");
  await page.getByLabel(label.username).fill(username);
  await page.getByLabel(label.password).fill(password);
  await page.getByRole("button", { name: label.submit }).click();
  await expect(page).toHaveURL(landing);
}

/** Logs a member in through the login form on `/` (zh-cn) and waits for nothing: callers check where it lands. */
export async function logInMember(page: Page, username = "member", password = "member123456"): Promise<void> {
  const label = COPY["zh-cn"];
  await page.goto("/");
  const form = page.getByRole("tabpanel");
  await form.getByLabel(label.username).fill(username);
  await form.getByLabel(label.password).fill(password);
  await form.getByRole("button", { name: label.submit }).click();
}
