import { expect, type Locator, type Page } from "@playwright/test";
import { questionOnScreen } from "../server.ts";

/** "第 n 题，共 total 题": where a practice or an exam stands. */
export function questionPosition(page: Page, n: number, total: number): Locator {
  return page.getByText(`第 ${n} 题，共 ${total} 题`);
}

/**
 * The member's exam screens: the room list's "enter", the paper's introduction, the answering
 * screen (its question grid, "next", the unsynced-answer note) and the submit confirmation.
 */
export class ExamScreen {
  readonly page: Page;
  /** The paper's introduction (time, questions, points, attempts left), and the submit confirmation. */
  readonly alert: Locator;
  /** The question grid. */
  readonly grid: Locator;
  /** The note beside an answer the server has not taken yet. */
  readonly savedOnDeviceOnly: Locator;
  /** The result's answer review. */
  readonly review: Locator;

  constructor(page: Page) {
    this.page = page;
    this.alert = page.getByRole("alertdialog");
    this.grid = page.getByRole("navigation", { name: "跳到题目" });
    this.savedOnDeviceOnly = page.getByText("已保存在本设备，尚未同步到服务器");
    this.review = page.getByRole("region", { name: "答题回顾" });
  }

  /** The list of official rooms. */
  async openOfficialRooms(): Promise<void> {
    await this.page.goto("/exam/examTab/officialTest");
  }

  /** The "enter" button of the room named `room` (of the only room when none is named). */
  enterButton(room?: string): Locator {
    const scope = room ? this.page.getByRole("listitem").filter({ hasText: room }) : this.page;
    return scope.getByRole("button", { name: "进入考试" });
  }

  /** Enters a room: its introduction opens, nothing starts yet. */
  async enterRoom(room?: string): Promise<void> {
    await this.enterButton(room).click();
  }

  /** Starts the paper from its introduction. */
  async startFromIntroduction(): Promise<void> {
    await this.alert.getByRole("button", { name: "开始考试" }).click();
  }

  /** Starts the list's first mock paper, through its introduction. */
  async startFirstMock(): Promise<void> {
    await this.page.getByRole("button", { name: "开始考试" }).first().click();
    await this.startFromIntroduction();
  }

  /** Picks the first choice of the question on screen. */
  async chooseFirst(): Promise<void> {
    await this.page.getByRole("radio").first().check();
  }

  /** Moves to the next question. */
  async next(): Promise<void> {
    await this.page.getByRole("button", { name: "下一题" }).click();
  }

  /** Presses "submit": the confirmation opens. */
  async submit(): Promise<void> {
    await this.page.getByRole("button", { name: "交卷" }).click();
  }

  /** Confirms a paper with every question answered. */
  async confirmSubmit(): Promise<void> {
    await this.alert.getByRole("button", { name: "交卷" }).click();
  }

  /** Confirms a paper with questions left unanswered. */
  async submitAnyway(): Promise<void> {
    await this.alert.getByRole("button", { name: "仍然交卷" }).click();
  }
}

/**
 * A bank's favourites or wrong-question tab's "practise these" link (by where it leads: it names
 * how many questions it practises), opening the practice of exactly that set.
 */
export function practiseSetLink(page: Page, set: "wrong" | "favourites"): Locator {
  return page.getByRole("link").and(page.locator(`[href*="set=${set}"]`));
}

/** The practice screen's words, in the two interface languages. */
const PRACTICE_COPY = {
  "zh-cn": { verdict: /回答正确|回答错误/, submit: "提交答案", next: "下一题", previous: "上一题", favourite: "加入收藏", back: "返回" },
  en: { verdict: /^(Correct|Wrong)$/, submit: "Submit answer", next: "Next question", previous: "Previous", favourite: "Add to favourites", back: "Back" },
} as const;

/** The practice screen of a question bank: answer, check, favourite, next. */
export class PracticeScreen {
  readonly page: Page;
  /** The outcome shown once an answer is checked. */
  readonly verdict: Locator;
  private readonly copy: (typeof PRACTICE_COPY)[keyof typeof PRACTICE_COPY];

  /** `lang`: the interface language the page is in (zh-cn, the app's default). */
  constructor(page: Page, lang: keyof typeof PRACTICE_COPY = "zh-cn") {
    this.page = page;
    this.copy = PRACTICE_COPY[lang];
    this.verdict = page.getByText(this.copy.verdict);
  }

  /**
   * Answers one of the demo maths bank's additions ("a + b = ?", its first 25 questions) rightly
   * or wrongly, by its stem on screen; checks it.
   */
  async answerSum(right: boolean): Promise<void> {
    const stem = (await this.page.getByRole("group").locator("legend").textContent()) ?? "";
    const match = /(\d+) \+ (\d+) = \?/.exec(stem);
    if (!match) throw new Error(`not an addition: ${stem}`);
    const sum = String(Number(match[1]) + Number(match[2]));
    const options = this.page.getByRole("radio");
    const names = await options.evaluateAll((inputs) => inputs.map((input) => input.closest("label")?.textContent ?? ""));
    const index = names.findIndex((name) => (name.replace(/^[A-H]\.\s*/, "").trim() === sum) === right);
    await options.nth(index).check();
    await this.checkAnswer();
    await expect(this.verdict.first()).toBeVisible();
  }

  /** Goes back to the previous question. */
  async previous(): Promise<void> {
    await this.page.getByRole("button", { name: this.copy.previous }).click();
  }

  /** The app's own back (the screen above, or the previous one of this visit). */
  async back(): Promise<void> {
    await this.page.getByRole("button", { name: this.copy.back, exact: true }).click();
  }

  /** Opens the first bank of the member's bank list for practice. */
  async openFirstBank(): Promise<void> {
    await this.page.goto("/exam/myTest");
    await this.page.getByRole("link", { name: "练习" }).first().click();
  }

  /** A question's button in the practice grid, by its accessible name. */
  gridButton(name: RegExp): Locator {
    return this.page.getByRole("button", { name });
  }

  /** Answers the question on screen: option D where there is one, else the first choice or "x"; then checks it. */
  async answerCurrent(): Promise<void> {
    await questionOnScreen(this.page);
    const radios = this.page.getByRole("radio");
    const boxes = this.page.getByRole("checkbox");
    if ((await radios.count()) >= 4) await radios.nth(3).check();
    else if ((await radios.count()) > 0) await radios.first().check();
    else if ((await boxes.count()) > 0) await boxes.first().check();
    else await this.page.getByRole("textbox").first().fill("x");
    await this.checkAnswer();
    await expect(this.verdict.first()).toBeVisible();
  }

  /** Checks the answer given. */
  async checkAnswer(): Promise<void> {
    await this.page.getByRole("button", { name: this.copy.submit }).click();
  }

  /** Stars the question on screen. */
  async favourite(): Promise<void> {
    await this.page.getByRole("button", { name: this.copy.favourite }).click();
  }

  /** Moves to the next question. */
  async next(): Promise<void> {
    await this.page.getByRole("button", { name: this.copy.next }).click();
  }
}
