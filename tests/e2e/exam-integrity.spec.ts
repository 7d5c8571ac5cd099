import type { Locator, Page } from "@playwright/test";
import { AdminCrud } from "./pages/adminCrud.ts";
import { ExamScreen } from "./pages/exam.ts";
import { expect, openAdmin, openMember, startServer, test } from "./server.ts";

/**
 * Exam integrity in the real app: what a member sat does not change behind them. Staff (back office,
 * English) build a bank, three questions of three types (each with its own default score) and a
 * paper that gives them other points (4 + 3 + 3 = its total of 10), and open a room; a member
 * (zh-cn) sits it through the introduction, seeing the paper's points on each question, and
 * submits (7 of 10). Staff then edit a question's text and answer, delete another (in use: hidden,
 * as the confirm says) and change a paper row's points. The member's result still shows every
 * question as sat, each with the paper's points adding up to the total, and the same score.
 */

interface Sat {
  /** The question's text as staff wrote it (and as the member sat it). */
  stem: string;
  /** What the paper gives it. */
  points: number;
  /** What the member scores on it. */
  got: number;
}

/** Adds a row with the screen's "Add" button and saves the dialog's form once `fill` has filled it. */
async function addThroughForm(page: Page, fill: (dialog: Locator) => Promise<void>) {
  const crud = new AdminCrud(page, "en");
  await crud.openAdd();
  await fill(crud.dialog);
  await crud.saveAndClose();
}

/** The row of a list found by the quick search. */
async function findRow(page: Page, text: string): Promise<Locator> {
  const crud = new AdminCrud(page, "en");
  await crud.quickFind(text);
  const row = crud.row(text);
  await expect(row).toHaveCount(1);
  return row;
}

/** Picks `text` in a remote select (a combobox searching the server). */
async function pickRemote(page: Page, combobox: Locator, text: string) {
  await combobox.click();
  await combobox.fill(text);
  await page.getByRole("option", { name: text }).click();
}

test("a member's result keeps every question as sat, with the paper's points, after staff edit, delete and re-point them", async ({ browser }) => {
  test.setTimeout(300_000);
  const server = await startServer();
  try {
    const staff = await (await browser.newContext({ baseURL: server.url })).newPage();
    const learner = await (await browser.newContext({ baseURL: server.url })).newPage();
    const tag = `e2e${Date.now().toString(36)}`;
    const bankTitle = `Bank ${tag}`;
    const paperTitle = `Paper ${tag}`;
    const roomTitle = `Room ${tag}`;
    const single: Sat = { stem: `${tag} 哪个颜色表示停止？`, points: 4, got: 4 };
    const judge: Sat = { stem: `${tag} 黄灯亮时可以加速通过。`, points: 3, got: 3 };
    const fill: Sat = { stem: `${tag} 中国的首都是____。`, points: 3, got: 0 };
    const sat = [single, judge, fill];

    // Staff: a bank (exam only), three questions with their own scores (2, 1, 2).
    await openAdmin(staff, { lang: "en", path: "/admin/exam/classify" });
    await addThroughForm(staff, async (dialog) => {
      await dialog.getByLabel("Title", { exact: true }).fill(bankTitle);
      await dialog.getByRole("radio", { name: "Exam-only bank (answers stay on the server)" }).check();
    });

    await staff.goto("/admin/exam/question");
    const pickBank = async (dialog: Locator) => {
      await dialog.getByLabel("Bank", { exact: true }).click();
      await staff.getByRole("option", { name: bankTitle }).click();
    };
    await addThroughForm(staff, async (dialog) => {
      await pickBank(dialog);
      await dialog.getByRole("radio", { name: "Single choice" }).check();
      await dialog.getByLabel("Question", { exact: true }).fill(single.stem);
      for (const [key, text] of [["A", "红"], ["B", "绿"], ["C", "蓝"], ["D", "白"]] as const) await dialog.getByLabel(`Option ${key}`, { exact: true }).fill(text);
      await dialog.getByRole("radio", { name: "A", exact: true }).check();
      await expect(dialog.getByLabel("Score", { exact: true })).toHaveValue("2");
    });
    await addThroughForm(staff, async (dialog) => {
      await pickBank(dialog);
      await dialog.getByRole("radio", { name: "True or false" }).check();
      await dialog.getByLabel("Question", { exact: true }).fill(judge.stem);
      // The answer's "False" (the live preview below has one of its own).
      await dialog.getByRole("radio", { name: "False", exact: true }).first().check();
      await dialog.getByLabel("Score", { exact: true }).fill("1");
    });
    await addThroughForm(staff, async (dialog) => {
      await pickBank(dialog);
      await dialog.getByRole("radio", { name: "Fill in the blanks" }).check();
      await dialog.getByLabel("Question", { exact: true }).fill(fill.stem);
      await dialog.getByRole("textbox", { name: "Blank 1, answer 1", exact: true }).fill("北京");
    });

    // A paper of 10 (pass 6) whose rows give the questions 4, 3 and 3 points (the composer offers each question's own score first).
    await staff.goto("/admin/exam/paper");
    await addThroughForm(staff, async (dialog) => {
      await dialog.getByLabel("Title", { exact: true }).fill(paperTitle);
      await dialog.getByLabel("Total score").fill("10");
      await dialog.getByLabel("Pass score").fill("6");
    });
    const paperRow = await findRow(staff, paperTitle);
    await paperRow.getByRole("button", { name: /^Compose questions · \d+$/ }).click();
    const composer = staff.getByRole("dialog");
    for (const [q, own] of [[single, "2"], [judge, "1"], [fill, "2"]] as const) {
      await pickRemote(staff, composer.getByLabel("Question", { exact: true }), q.stem);
      await expect(composer.getByLabel("Score", { exact: true })).toHaveValue(own);
      await composer.getByLabel("Score", { exact: true }).fill(String(q.points));
      await composer.getByRole("button", { name: "Add row" }).click();
      await expect(composer.getByTestId("composer-rows")).toContainText(q.stem);
    }
    await expect(composer.getByTestId("composer-total")).toHaveText("Questions add up to 10 of 10 points");
    await composer.getByRole("button", { name: "Close", exact: true }).first().click();
    await expect(composer).toBeHidden();

    // A room open now on that paper, answers shown after submission.
    await staff.goto("/admin/exam/room");
    await staff.getByRole("button", { name: "Add", exact: true }).click();
    const roomForm = staff.getByRole("dialog");
    await roomForm.getByLabel("Title", { exact: true }).fill(roomTitle);
    await pickRemote(staff, roomForm.getByLabel("Paper"), paperTitle);
    await expect(roomForm.getByTestId("paper-totals")).toHaveText("Total 10 points; its questions add up to 10");
    await expect(roomForm.getByLabel("Pass score")).toHaveValue("6");
    const pad = (n: number) => String(n).padStart(2, "0");
    const local = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    await roomForm.getByRole("textbox", { name: "Opens" }).fill(local(new Date(Date.now() - 3_600_000)));
    await roomForm.getByRole("textbox", { name: "Closes" }).fill(local(new Date(Date.now() + 86_400_000)));
    await roomForm.getByRole("radio", { name: "After submission" }).check();
    await roomForm.getByRole("button", { name: "Save" }).click();
    // The paper is offered as a mock exam: the room withdraws it until it closes, and the form asks to confirm that first.
    const keepForExam = roomForm.getByRole("checkbox", { name: /mock/i });
    await expect(async () => {
      if (await roomForm.isVisible()) expect(await keepForExam.count()).toBe(1);
    }).toPass();
    if (await roomForm.isVisible()) {
      await keepForExam.check();
      await roomForm.getByRole("button", { name: "Save" }).click();
    }
    await expect(roomForm).toBeHidden();

    // The member sits it: the introduction, then each question with the paper's points.
    await openMember(learner);
    const exam = new ExamScreen(learner);
    await exam.openOfficialRooms();
    await exam.enterRoom(roomTitle);
    const intro = learner.getByRole("alertdialog", { name: roomTitle });
    const figure = (label: string) => intro.getByRole("term").filter({ hasText: label }).locator("xpath=following-sibling::dd[1]");
    await expect(figure("题目数")).toHaveText("3");
    await expect(figure("总分")).toHaveText("10");
    await expect(figure("及格分")).toHaveText("6");
    await expect(intro).toBeVisible();
    await exam.startFromIntroduction();
    await expect(learner).toHaveURL(/\/exam\/my_test_detail\?official=/);
    for (let position = 1; position <= 3; position++) {
      const step = learner.getByRole("region", { name: `第 ${position} 题，共 3 题` });
      await expect(step).toBeVisible();
      const legend = await step.locator("legend").innerText();
      const q = sat.find((s) => legend.includes(s.stem));
      expect(q, legend).toBeDefined();
      await expect(step.getByText(`${q!.points} 分`, { exact: true })).toBeVisible();
      if (q === single) await step.getByRole("radio", { name: /红/ }).check();
      else if (q === judge) await step.getByRole("radio", { name: "错误" }).check();
      else await step.getByRole("textbox").fill("上海");
      if (position < 3) await exam.next();
    }
    await exam.submit();
    await exam.confirmSubmit();
    await expect(learner).toHaveURL(/\/exam\/examResult\?uuid=/);

    /** What the member's result page shows: the score, and per question its text and points. */
    const expectResultAsSat = async () => {
      await expect(learner.getByRole("heading", { level: 1, name: roomTitle })).toBeVisible();
      await expect(learner.getByTestId("result-score")).toHaveText(/(^|\s)7\s*\/\s*10$/);
      const review = exam.review;
      const items = review.getByRole("listitem").filter({ has: learner.getByTestId("question-outcome") });
      await expect(items).toHaveCount(3);
      let worth = 0;
      for (const q of sat) {
        const item = items.filter({ hasText: q.stem });
        await expect(item).toHaveCount(1);
        await expect(item).toContainText(new RegExp(`第 \\d 题，得 ${q.got} 分，满分 ${q.points} 分`));
        worth += q.points;
      }
      // The points shown add up to the paper's total.
      expect(worth).toBe(10);
      await expect(items.filter({ hasText: single.stem })).toContainText("答案： A");
      await expect(review).not.toContainText("哪个颜色表示通行");
    };
    await expectResultAsSat();
    const resultUrl = learner.url();

    // Staff keep working on the bank: a question's text and answer edited...
    const crud = new AdminCrud(staff, "en");
    await crud.open("/admin/exam/question");
    const singleRow = await findRow(staff, single.stem);
    await crud.edit(singleRow);
    const editor = crud.dialog;
    await editor.getByLabel("Question", { exact: true }).fill(`${tag} 哪个颜色表示通行？`);
    await editor.getByRole("radio", { name: "B", exact: true }).check();
    await crud.saveAndClose();

    // ...another deleted: it is in use, so the confirm says it will be hidden.
    const judgeRow = await findRow(staff, judge.stem);
    await judgeRow.getByRole("button", { name: /^Delete row \d+$/ }).click();
    const confirm = staff.getByRole("alertdialog");
    await expect(confirm.getByRole("note")).toHaveText("Used in 1 paper and 1 attempt: it will be hidden, not deleted.");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(confirm).toBeHidden();
    await expect(crud.row(judge.stem)).toHaveCount(0);

    // ...and a paper row's points changed (3 → 5).
    await crud.open("/admin/exam/paperRow");
    const fillRow = await findRow(staff, fill.stem);
    await crud.edit(fillRow);
    await crud.dialog.getByLabel("Score each").fill("5");
    await crud.saveAndClose();
    await expect(fillRow).toContainText("5");

    // The member's result, opened again and from the records: every question as sat, the same score.
    await learner.goto(resultUrl);
    await expectResultAsSat();
    await learner.goto("/exam/examTab/testRecord");
    await learner.getByRole("link", { name: roomTitle }).click();
    await expect(learner).toHaveURL(/\/exam\/examResult\?uuid=/);
    await expectResultAsSat();
  } finally {
    await server.stop();
  }
});
