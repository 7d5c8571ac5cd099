import { expect, type Page } from "@playwright/test";
import type { AdminLang } from "./adminCrud.ts";

/** The login forms' copy, once per language. */
const COPY = {
  "zh-cn": { username: "用户名", password: "密码", submit: "登录" },
  en: { username: "Username", password: "Password", submit: "Log in" },
} as const;

/** The localStorage keys of the app's session stores (src/client/stores/keys.ts). */
const SESSION_KEY = { member: "userInfo", admin: "adminInfo" } as const;

/**
 * Where each side's login is answered (the member form posts to checkIn), with its form's
 * default "keep me logged in": ticked on the member's form (a refresh token comes with the
 * session), not on the admin's.
 */
const LOGIN = {
  member: (username: string, password: string) => ({ url: "/api/user/checkIn", data: { tab: "login", username, password, keep: true } }),
  admin: (username: string, password: string) => ({ url: "/admin/index/login", data: { username, password, keep: false } }),
} as const;

/** The page's language from its first load on (what the language switch stores), unless one is stored already. */
export async function useLanguage(page: Page, lang: AdminLang): Promise<void> {
  await page.addInitScript((lang) => {
    if (!localStorage.getItem("storeConfig")) localStorage.setItem("storeConfig", JSON.stringify({ state: { lang: { defaultLang: lang } }, version: 0 }));
  }, lang);
}

/**
 * Signs in through the API, not the login form, and stores the session where the app's login form
 * stores it: the page's next navigation opens signed in. For tests whose subject is not the login
 * form (those use logInAdmin / logInMember): it skips the login page, its form and the landing
 * page a test did not come for. Each call is a session of its own (its own refresh token).
 * Returns the access token, for API calls the test makes itself.
 */
export async function signIn(
  page: Page,
  side: "member" | "admin",
  { username = side === "admin" ? "admin" : "member", password = side === "admin" ? "admin123456" : "member123456" }: { username?: string; password?: string } = {},
): Promise<string> {
  const { url, data } = LOGIN[side](username, password);
  const body = (await (await page.request.post(url, { data })).json()) as { code: number; msg: string; data: { userInfo: { token: string } } };
  expect(body.code, body.msg).toBe(1);
  await page.addInitScript(
    ({ key, info }) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, JSON.stringify({ state: info, version: 0 }));
    },
    { key: SESSION_KEY[side], info: body.data.userInfo },
  );
  return body.data.userInfo.token;
}

/**
 * Opens a back-office page (`path`, by default /admin, which lands on the admin's first menu)
 * signed in through the API (signIn) in `lang`, and waits until the page's URL matches `landing`
 * (by default `path` itself, or any back-office page for /admin). Use logInAdmin when the login
 * form is what is tested.
 */
export async function openAdmin(
  page: Page,
  { path = "/admin", landing, lang = "zh-cn", username, password }: { path?: string; landing?: RegExp; lang?: AdminLang; username?: string; password?: string } = {},
): Promise<void> {
  if (lang === "en") await useLanguage(page, "en");
  await signIn(page, "admin", { username, password });
  await page.goto(path);
  await expect(page).toHaveURL(landing ?? (path === "/admin" ? /\/admin\/(?!login|loading)/ : new RegExp(`${escapeRegExp(path)}$`)));
}

/**
 * Opens a member page (`path`, by default the member's courses, where the login form lands)
 * signed in through the API (signIn), and waits until the page's URL is that path. Use
 * logInMember when the login form is what is tested: the form's page load, its fields and the
 * landing cost each test that only needs a signed-in member a page load of its own.
 */
export async function openMember(
  page: Page,
  { path = "/user/course/my_course", username, password }: { path?: string; username?: string; password?: string } = {},
): Promise<void> {
  await signIn(page, "member", { username, password });
  await page.goto(path);
  await expect(page).toHaveURL(new RegExp(`${escapeRegExp(path)}$`));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Logs an admin in through `/admin/login` (admin / admin123456 by default) in the page's language
 * (zh-cn, the app's default; `lang: "en"` stores English first) and waits until the back office
 * has opened (`landing`, by default any page that is not the login or the loader).
 */
export async function logInAdmin(
  page: Page,
  { username = "admin", password = "admin123456", lang = "zh-cn", landing = /\/admin\/(?!login|loading)/ }: { username?: string; password?: string; lang?: AdminLang; landing?: RegExp } = {},
): Promise<void> {
  if (lang === "en") await useLanguage(page, "en");
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
