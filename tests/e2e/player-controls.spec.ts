import { CoursePage, Player } from "./pages/course.ts";
import { expect, openMember, test } from "./server.ts";

test.describe("the lesson player's controls", () => {
  test("one set of controls, the app's: no native controls, a named position slider, keyboard play/pause and seek, full screen keeps them", async ({ page }) => {
    await openMember(page);
    const course = new CoursePage(page);
    await course.openFromCatalogue(/高效学习法/);
    await expect(page).toHaveURL(/\/course\/lesson\?id=\d+/);
    const enrol = course.enrolFree;
    await expect(enrol.or(page.getByRole("link", { name: /为什么要制定学习计划/ })).first()).toBeVisible();
    if (await enrol.isVisible()) await enrol.click();
    await page.getByRole("link", { name: /为什么要制定学习计划/ }).click();
    await expect(page).toHaveURL(/\/player\/txPlayer\?id=\d+/);

    const video = page.locator("video");
    await expect(video).toHaveCount(1);
    // The browser's own controls are not shown next to the app's.
    await expect(video).not.toHaveAttribute("controls");
    const player = new Player(page);
    const slider = player.progress;
    await expect(slider).toBeVisible();
    await page.waitForFunction(() => (document.querySelector("video")?.readyState ?? 0) >= 1, undefined, { timeout: 15_000 });
    // Position / duration: the member may resume where an earlier visit (another test) left off.
    await expect(slider).toHaveAttribute("aria-valuetext", /^\d+:\d\d \/ (?!0:00$)\d+:\d\d$/);

    // From the start (Home on the slider), whatever position was resumed.
    await slider.focus();
    await page.keyboard.press("Home");
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 1) < 1);

    // Keyboard only: Tab to "play", press Enter; K pauses (the page's shortcut layer).
    const play = player.play;
    await play.focus();
    const start = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    await page.keyboard.press("Enter");
    await page.waitForFunction((from) => (document.querySelector("video")?.currentTime ?? 0) > from + 1, start, { timeout: 15_000 });
    await page.keyboard.press("k");
    await expect(player.play).toBeVisible();
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);

    // The slider is the member's to move (End, Home), not taken by the page's shortcut layer.
    const before = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    await slider.focus();
    await page.keyboard.press("End");
    await page.waitForFunction((at) => (document.querySelector("video")?.currentTime ?? 0) > at + 5, before);
    const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
    expect(await video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(duration - 2);
    await page.keyboard.press("Home");
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) < 1);
    await expect(slider).toHaveAttribute("aria-valuetext", /^0:00 \/ /);

    // Full screen takes the frame with the app's controls; still no native ones.
    await player.fullscreen.click();
    await page.waitForFunction(() => document.fullscreenElement !== null);
    expect(await page.evaluate(() => document.fullscreenElement?.contains(document.querySelector("[role=toolbar]")) ?? false)).toBe(true);
    await expect(video).not.toHaveAttribute("controls");
    await expect(player.exitFullscreen).toBeVisible();
    await player.exitFullscreen.click();
    await page.waitForFunction(() => document.fullscreenElement === null);
    await expect(player.fullscreen).toBeVisible();
  });
});
