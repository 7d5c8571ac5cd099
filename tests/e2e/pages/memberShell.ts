import { expect, type Locator, type Page } from "@playwright/test";

/**
 * What the member app shows on every screen about the network and its outbox: the offline notice
 * (a toast) and the count of changes waiting to be sent.
 */
export class MemberShell {
  /** The notice shown when the connection drops. */
  readonly offlineNotice: Locator;
  /** "N 条待同步" ("N changes waiting to sync"): changes kept on the device until the server takes them (a button: a tap lists them). */
  readonly pendingSync: Locator;
  /** What the pending-sync button opens: the changes waiting, by kind, and the last sync error (its status line). */
  readonly pendingPanel: Locator;

  private readonly page: Page;

  constructor(page: Page) {
    this.page = page;
    this.offlineNotice = page.getByText("您已断开网络连接！");
    this.pendingSync = page.getByRole("button", { name: /条待同步|waiting to sync/ });
    // The only dialog with a list while the header's menu is closed.
    this.pendingPanel = page.getByRole("dialog").filter({ has: page.getByRole("list") });
  }

  /** Chooses the interface language in the phone's header menu (the app reloads in it). */
  async switchLanguageOnPhone(to: "zh-cn" | "en"): Promise<void> {
    await this.page.getByRole("banner").getByRole("button", { name: /^(菜单|Menu)/ }).click();
    const menu = this.page.getByRole("dialog", { name: /^(菜单|Menu)$/ });
    await menu.getByRole("combobox", { name: /^(语言|Language)$/ }).selectOption(to);
    await expect(this.page.getByRole("banner").getByRole("button", { name: to === "en" ? /^Menu/ : /^菜单/ })).toBeVisible();
  }
}
