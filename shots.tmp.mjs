import { chromium } from "@playwright/test";
const base = process.env.BASE;
const only = process.env.ONLY?.split(",");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });

async function login(page) {
  await page.goto("/");
  const form = page.getByRole("tabpanel");
  await form.getByLabel(/用户名|Username/).fill("member");
  await form.getByLabel(/^(密码|Password)$/).fill("member123456");
  await form.getByRole("button", { name: /^(登录|Log in)$/ }).click();
  await page.waitForURL(/my_course/);
}
async function api(page, method, url, data) {
  return page.evaluate(async ([m, u, d]) => {
    const token = JSON.parse(localStorage.getItem("userInfo")).state.token;
    const res = await fetch(u, { method: m, headers: { "ba-user-token": token, "content-type": "application/json" }, body: d ? JSON.stringify(d) : undefined });
    return (await res.json());
  }, [method, url, data]);
}
const pages = [
  ["fav", "/exam/examTab/topicCollect?id=2"],
  ["wrong", "/exam/examTab/errorTopic?id=2"],
  ["myexam", "/user/exam/my_exam"],
  ["balance", "/user/account/balance"],
  ["integral", "/user/account/integral"],
];
for (const lang of ["zh-cn", "en"]) {
  for (const [w, h] of [[1366, 768], [390, 844]]) {
    const context = await browser.newContext({ baseURL: base, viewport: { width: w, height: h } });
    await context.addInitScript((l) => { if (!localStorage.getItem("storeConfig")) localStorage.setItem("storeConfig", JSON.stringify({ state: { lang: { defaultLang: l } }, version: 0 })); }, lang);
    const page = await context.newPage();
    await login(page);
    if (process.env.SETUP) await eval(process.env.SETUP);
    for (const [name, url] of pages) {
      if (only && !only.includes(name)) continue;
      await page.goto(url);
      await page.waitForTimeout(2500);
      await page.screenshot({ path: `/tmp/mbr/shots/${process.env.TAG ?? ""}${lang}-${w}-${name}.png`, fullPage: true });
    }
    await context.close();
  }
}
await browser.close();
