import { chromium } from "@playwright/test";
const base = process.env.BASE;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const context = await browser.newContext({ baseURL: base });
const page = await context.newPage();
await page.goto("/");
const form = page.getByRole("tabpanel");
await form.getByLabel("用户名").fill("member");
await form.getByLabel("密码").fill("member123456");
await form.getByRole("button", { name: "登录" }).click();
await page.waitForURL(/my_course/);
const out = await page.evaluate(async () => {
  const token = JSON.parse(localStorage.getItem("userInfo")).state.token;
  const call = async (m, u, d) => (await (await fetch(u, { method: m, headers: { "ba-user-token": token, "content-type": "application/json", "think-lang": "en" }, body: d ? JSON.stringify(d) : undefined })).json());
  const bank = await call("GET", "/api/exam/bank?id=2");
  const [a, b, c] = bank.data.questions;
  const now = Date.now();
  const id = () => crypto.randomUUID();
  const sync = await call("POST", "/api/exam/sync", { ops: [
    { id: id(), type: "favourite.set", at: now, payload: { questionId: a.id, on: true } },
    { id: id(), type: "favourite.set", at: now + 1, payload: { questionId: b.id, on: true } },
    { id: id(), type: "practice.answer", at: now + 2, payload: { questionId: c.id, answer: c.type === "multiple" ? ["H"] : c.type === "fill" ? ["zzz"] : "H", bankId: 2 } },
  ] });
  const catalog = await call("GET", "/api/exam/catalog");
  const start = await call("POST", "/api/exam/official/start", { roomId: catalog.data.rooms[0].id });
  const submit = await call("POST", "/api/exam/official/submit", { uuid: start.data.attempt.uuid, answers: {}, answeredAt: {} });
  return { sync: sync.data, submit };
});
console.log(JSON.stringify(out));
await browser.close();
