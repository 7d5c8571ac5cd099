import { expect, type Locator, type Page } from "@playwright/test";

/** The spaced-review tab (`/exam/examTab/review`) and its session, in zh-cn. */
export class ReviewScreen {
  readonly page: Page;
  /** "复习第 i 题，共 n 题". */
  readonly position: Locator;
  /** The grading once an answer is checked (right or wrong, with the answer). */
  readonly verdict: Locator;
  /** The session's summary. */
  readonly summary: Locator;

  constructor(page: Page) {
    this.page = page;
    this.position = page.getByText(/^复习第 \d+ 题，共 \d+ 题/);
    this.verdict = page.getByRole("status").filter({ hasText: /回答正确|回答错误/ });
    this.summary = page.getByRole("status").filter({ hasText: "复习完成" });
  }

  async open(bankId: number): Promise<void> {
    await this.page.goto(`/exam/examTab/review?id=${bankId}`);
  }

  async start(): Promise<void> {
    await this.page.getByRole("button", { name: "开始复习" }).click();
  }

  /** Chooses option `key` of the single-choice question on screen and checks it. */
  async answer(key: string): Promise<void> {
    await this.page.getByRole("radio", { name: new RegExp(`^${key}\\.`) }).check();
    await this.page.getByRole("button", { name: "核对答案" }).click();
    await expect(this.verdict).toBeVisible();
  }

  /** The right answer's key as the grading shows it ("答案：B"). */
  async rightKey(): Promise<string> {
    const text = await this.verdict.innerText();
    const key = /答案：\s*([A-Z])/.exec(text)?.[1];
    if (!key) throw new Error(`no answer key in ${text}`);
    return key;
  }

  /** A rating button (困难, 良好, 简单, or 下一步 after a wrong answer): its name, then its interval. */
  rating(name: "困难" | "良好" | "简单" | "下一步"): Locator {
    return this.page.getByRole("button", { name: new RegExp(`^${name}\\s`) });
  }
}
