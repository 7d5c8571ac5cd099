import type { Locator, Page } from "@playwright/test";

/** A course's page and a lesson's page around the player: enrol, the lesson's notes, the offline copy. */
export class CoursePage {
  readonly page: Page;
  readonly enrolFree: Locator;
  /** The lesson's notes (its text). */
  readonly notes: Locator;
  /** The button that keeps the lesson's video on the device. */
  readonly saveOffline: Locator;
  /** "已保存到本设备（size）：可离线播放。" once the video is kept on the device. */
  readonly savedOffline: Locator;
  /** Any "saved on this device" line. */
  readonly anySavedOnDevice: Locator;

  constructor(page: Page) {
    this.page = page;
    this.enrolFree = page.getByRole("button", { name: "免费报名" });
    this.notes = page.getByRole("region", { name: "课时讲义" });
    this.saveOffline = page.getByRole("button", { name: /保存.*离线/ });
    this.savedOffline = page.getByText(/已保存到本设备（[\d.]+ [KM]B）：可离线播放。/);
    this.anySavedOnDevice = page.getByText(/已保存到本设备/);
  }

  /** Opens the catalogue and the first course whose link matches `title`. */
  async openFromCatalogue(title: RegExp): Promise<void> {
    await this.page.goto("/user/course/index");
    await this.page.getByRole("link", { name: title }).first().click();
  }

  /** Removes the lesson's video from the device. */
  async removeSaved(): Promise<void> {
    await this.page.getByRole("button", { name: "删除" }).click();
  }
}

/** The lesson player's own controls (a toolbar over the video). */
export class Player {
  readonly controls: Locator;
  readonly play: Locator;
  readonly pause: Locator;
  readonly forward10: Locator;
  readonly progress: Locator;
  readonly fullscreen: Locator;
  readonly exitFullscreen: Locator;

  constructor(page: Page) {
    this.controls = page.getByRole("toolbar", { name: "视频控制" });
    this.play = this.controls.getByRole("button", { name: "播放", exact: true });
    this.pause = this.controls.getByRole("button", { name: "暂停", exact: true });
    this.forward10 = this.controls.getByRole("button", { name: "前进 10 秒" });
    this.progress = this.controls.getByRole("slider", { name: "播放进度" });
    this.fullscreen = this.controls.getByRole("button", { name: "全屏", exact: true });
    this.exitFullscreen = this.controls.getByRole("button", { name: "退出全屏" });
  }
}
