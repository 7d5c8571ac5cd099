import type { BrowserContext, Page } from "@playwright/test";
import { ExamScreen, PracticeScreen, practiseSetLink, questionPosition } from "./pages/exam.ts";
import { MemberShell } from "./pages/memberShell.ts";
import { expect, openMember, serviceWorkerInControl, startServer, test, type RunningServer } from "./server.ts";

// The service worker stays on here (the config blocks it): this spec reads the exams home offline.
test.use({ serviceWorkers: "allow" });

/**
 * The member's study loop on a phone (390 × 844, touch), one member signed in once for the whole
 * file: practice in Chinese (grading marks, the way back, the app's own back), the maths bank's
 * mock exam (its own paper only, a reload mid-exam, the confirmation), then in English the wrong
 * book of one bank practised as a set and the pending-sync badge, and back in Chinese offline the
 * content names. The tests run in order on one page: each continues where the last one left.
 */
test.describe.configure({ mode: "serial" });

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
/** The demo's banks (src/server/demo/exam.ts): maths, and general knowledge (another bank's). */
const MATHS = 2;
const KNOWLEDGE = 3;

let context: BrowserContext;
let page: Page;
/** A server of this file's own: its member's practice positions, wrong book and mock attempts stay out of the other specs' demo member. */
let own: RunningServer;
/** The stem of the maths question answered wrong in the first test. */
let wrongStem = "";

/** A GET or POST of the API as the signed-in member (their token from the app's store). */
async function asMember<T>(url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ url, body }) => {
      const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
      const init: RequestInit = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
      const res = await fetch(url, { ...init, headers: { ...init.headers, "ba-user-token": token } });
      return (await res.json()).data;
    },
    { url, body },
  );
}

test.beforeAll(async ({ browser }) => {
  own = await startServer();
  context = await browser.newContext({ ...PHONE, baseURL: own.url });
  page = await context.newPage();
  // The exams home once in Chinese, under the service worker: its copy is what offline reads later.
  await openMember(page, { path: "/exam/myTest" });
  await serviceWorkerInControl(page);
  await page.goto("/exam/myTest");
  await expect(page.getByText("数学基础").first()).toBeVisible();
});

test.afterAll(async () => {
  await context?.close();
  await own?.stop();
});

test("practice: a wrong choice red and the right one green, the answer and grading on the way back, the app's own back", async () => {
  const practice = new PracticeScreen(page);
  await page.goto(`/exam/myPractice?bank=${MATHS}`);
  await expect(questionPosition(page, 1, 66)).toBeVisible({ timeout: 15_000 });
  // The stem without the type label before it.
  wrongStem = await page.getByRole("group").locator("legend").evaluate((legend) => [...legend.childNodes].slice(1).map((n) => n.textContent).join("").trim());

  await practice.answerSum(false);
  await expect(page.getByText("回答错误")).toBeVisible();
  const chosen = page.getByRole("img", { name: "你的选择：错误" });
  const right = page.getByRole("img", { name: "正确答案" });
  await expect(chosen).toBeVisible();
  await expect(right).toBeVisible();
  // Red and green: the two options' borders differ from each other and from an unmarked one.
  const border = (mark: typeof chosen) => mark.locator("xpath=ancestor::label").evaluate((label) => getComputedStyle(label).borderColor);
  const unmarked = page.locator("label").filter({ has: page.getByRole("radio") }).filter({ hasNot: page.getByRole("img") }).first();
  const colours = [await border(chosen), await border(right), await unmarked.evaluate((label) => getComputedStyle(label).borderColor)];
  expect(new Set(colours).size).toBe(3);

  await practice.next();
  await expect(questionPosition(page, 2, 66)).toBeVisible();
  await practice.answerSum(true);
  await expect(page.getByRole("img", { name: "你的选择：正确" })).toBeVisible();
  await expect(page.getByRole("img", { name: "你的选择：错误" })).toHaveCount(0);

  // Back to question 1: the choice made, its grading and marks, not a blank question.
  await practice.previous();
  await expect(questionPosition(page, 1, 66)).toBeVisible();
  await expect(page.getByRole("radio", { checked: true })).toBeDisabled();
  await expect(page.getByText("回答错误")).toBeVisible();
  await expect(page.getByRole("img", { name: "你的选择：错误" })).toBeVisible();
  await expect(page.getByRole("button", { name: "重新作答" })).toBeVisible();

  // Opened directly, the app's back goes to the screen above: the bank's practice tab.
  await practice.back();
  await expect(page).toHaveURL(new RegExp(`/exam/examTab/sortPractice\\?id=${MATHS}$`));
});

test("mock exam: the maths bank lists its own paper, a reload returns to the question, submitting asks first, the result has a back", async () => {
  const exam = new ExamScreen(page);
  await page.goto(`/exam/examTab/mockTest?id=${KNOWLEDGE}`);
  const papers = page.getByRole("heading", { level: 3 });
  await expect(papers).toHaveText(["中国常识模拟卷（随机抽题）"]);
  await page.goto(`/exam/examTab/mockTest?id=${MATHS}`);
  await expect(papers).toHaveText(["数学基础测验（固定）"]);

  await exam.startFirstMock();
  await expect(page).toHaveURL(/\/exam\/my_test_detail\?attempt=/);
  await expect(questionPosition(page, 1, 10)).toBeVisible();
  await exam.chooseFirst();
  await exam.next();
  await expect(questionPosition(page, 2, 10)).toBeVisible();
  await page.reload();
  await expect(questionPosition(page, 2, 10)).toBeVisible({ timeout: 15_000 });
  for (let n = 2; n <= 10; n++) {
    await exam.chooseFirst();
    if (n < 10) {
      await exam.next();
      await expect(questionPosition(page, n + 1, 10)).toBeVisible();
    }
  }
  // Every question answered: the paper is still only handed in after a confirmation.
  await exam.submit();
  await expect(exam.alert).toBeVisible();
  await exam.confirmSubmit();
  await expect(page).toHaveURL(/\/exam\/examResult\?attempt=/);
  await new PracticeScreen(page).back();
  await expect(page).toHaveURL(new RegExp(`/exam/examTab/mockTest\\?id=${MATHS}$`));
});

test("in English: a bank's wrong book is its own, practised as a set; the sync badge counts what the member did and shows what waits", async () => {
  const shell = new MemberShell(page);
  await shell.switchLanguageOnPhone("en");
  // The exams home once in English (online): its copy now exists in both languages.
  await page.goto("/exam/myTest");
  await expect(page.getByText("Basic maths").first()).toBeVisible();

  // A wrong answer in another bank, made elsewhere (on the server): the maths tab must not list it.
  const knowledge = await asMember<{ questions: { id: number; stem: string; type: string; answer: unknown; options: { key: string }[] }[] }>(`/api/exam/bank?id=${KNOWLEDGE}`);
  const other = knowledge.questions.find((q) => q.type === "single")!;
  const wrongKey = other.options.find((o) => o.key !== other.answer)!.key;
  const op = { id: crypto.randomUUID(), type: "practice.answer", at: Date.now(), payload: { questionId: other.id, answer: wrongKey, bankId: KNOWLEDGE } };
  await asMember("/api/exam/sync", { ops: [op] });

  // The general-knowledge tab lists it (fetched: that bank is not on this device) ...
  await page.goto(`/exam/examTab/errorTopic?id=${KNOWLEDGE}`);
  await expect(page.getByText(other.stem)).toBeVisible();
  // ... the maths tab only the maths questions, the one answered wrong among them.
  await page.goto(`/exam/examTab/errorTopic?id=${MATHS}`);
  await expect(page.getByText(wrongStem, { exact: true })).toBeVisible();
  await expect(page.getByText(other.stem)).toHaveCount(0);
  await expect(page.getByText(/^Loading question/)).toHaveCount(0);
  const entries = await page.getByRole("button", { name: "Remove from the book" }).count();

  // Practise exactly those: the set has as many questions as the tab lists, the first is the one answered wrong.
  await practiseSetLink(page, "wrong").click();
  const practice = new PracticeScreen(page, "en");
  await expect(page.getByText(`Question 1 of ${entries}`)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("group").getByText(wrongStem)).toBeVisible();
  await practice.answerSum(true);
  await expect(page.getByText("Correct", { exact: true })).toBeVisible();
  // Answered right: out of the wrong book (the tab no longer lists it).
  await practice.back();
  await expect(page).toHaveURL(new RegExp(`/exam/examTab/errorTopic\\?id=${MATHS}$`));
  await expect(page.getByText(wrongStem, { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Remove from the book" })).toHaveCount(entries - 1);

  // Offline: 2 answers and a favourite are 3 changes, not the 6 records they make on the device.
  // (The bank opens at question 1, where the first test went back to; 1 and 2 are answered.)
  await page.goto(`/exam/myPractice?bank=${MATHS}`);
  await expect(page.getByText("Question 1 of 66")).toBeVisible({ timeout: 15_000 });
  await practice.next();
  await practice.next();
  await expect(page.getByText("Question 3 of 66")).toBeVisible();
  await expect(shell.pendingSync).toHaveCount(0, { timeout: 20_000 });
  await context.setOffline(true);
  await practice.answerSum(true);
  await practice.favourite();
  await practice.next();
  await practice.answerSum(false);
  await expect(shell.pendingSync).toHaveAccessibleName("3 changes waiting to sync");
  await expect(shell.pendingSync).toContainText("3");
  await shell.pendingSync.tap();
  await expect(shell.pendingPanel).toBeVisible();
  await expect(shell.pendingPanel.getByRole("listitem")).toHaveText([/^Practice answer × 2/, /^Favourite question × 1/]);
  await expect(shell.pendingPanel.getByRole("status")).toHaveCount(0);
  await page.keyboard.press("Escape");

  // Back online with the server failing: the panel says so (the last sync error); once it works, the badge goes.
  await page.route("**/api/exam/sync", (route) => route.fulfill({ status: 503, body: "" }));
  await context.setOffline(false);
  await shell.pendingSync.tap();
  await expect(shell.pendingPanel.getByRole("status")).toBeVisible({ timeout: 15_000 });
  await page.unroute("**/api/exam/sync");
  await expect(shell.pendingSync).toHaveCount(0, { timeout: 30_000 });
});

test("back in Chinese, offline: the exams home and the bank name content in Chinese, not in the English seen last", async () => {
  const shell = new MemberShell(page);
  await context.setOffline(true);
  await shell.switchLanguageOnPhone("zh-cn");
  await page.goto("/exam/myTest");
  await expect(page.getByText("示例题库").first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("数学基础").first()).toBeVisible();
  await expect(page.getByText("Sample banks")).toHaveCount(0);
  await expect(page.getByText("Basic maths")).toHaveCount(0);
  // The bank saved on the device is named in Chinese too (it was last downloaded in English).
  await page.goto(`/exam/myPractice?bank=${MATHS}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("数学基础");
  await context.setOffline(false);
});
