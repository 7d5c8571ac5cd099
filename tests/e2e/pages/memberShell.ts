import type { Locator, Page } from "@playwright/test";

/**
 * What the member app shows on every screen about the network and its outbox: the offline notice
 * (a toast) and the count of changes waiting to be sent.
 */
export class MemberShell {
  /** The notice shown when the connection drops. */
  readonly offlineNotice: Locator;
  /** "N 条待同步": changes kept on the device until the server takes them. */
  readonly pendingSync: Locator;

  constructor(page: Page) {
    this.offlineNotice = page.getByText("您已断开网络连接！");
    this.pendingSync = page.getByText(/条待同步/);
  }
}
