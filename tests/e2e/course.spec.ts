import type { Page } from "@playwright/test";
import { CoursePage, Player } from "./pages/course.ts";
import { MemberShell } from "./pages/memberShell.ts";
import { expect, openMember, serviceWorkerInControl, test } from "./server.ts";

// The service worker stays on here (the config blocks it): this spec reads lessons and plays saved videos offline.
test.use({ serviceWorkers: "allow" });

const videoTime = (page: Page) => page.locator("video").evaluate((v: HTMLVideoElement) => v.currentTime);

/** The paid demo course's own media files (the free courses use copies under /storage/course/demo/). */
const PAID_MEDIA = ["/storage/course/demo-paid/hls/index.m3u8", "/storage/course/demo-paid/hls/init.mp4", "/storage/course/demo-paid/hls/segment-00.m4s", "/storage/course/demo-paid/pattern.webm", "/storage/course/demo-paid/bars.mp4"];

/** HTTP status of a fetch made by the page (the browser's own cookie rules), with or without its cookies. */
const mediaStatus = (page: Page, url: string, credentials: RequestCredentials = "same-origin", range = "") =>
  page.evaluate(
    async ([u, c, r]) => (await fetch(u!, { credentials: c as RequestCredentials, cache: "no-store", headers: r ? { range: r } : {} })).status,
    [url, credentials, range],
  );

/**
 * The service worker controls the page, and did when the page loaded: a page it claimed later
 * fetched its lesson around the worker, so that answer is not cached for offline use and the
 * page is loaded again (on a busy machine the first install can finish after the lesson loaded).
 */
async function lessonUnderWorker(page: Page): Promise<void> {
  await serviceWorkerInControl(page);
  const loadedUnderWorker = await page.evaluate(() => ((performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined)?.workerStart ?? 0) > 0);
  if (!loadedUnderWorker) {
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  }
}

test.describe("courses and the player", () => {
  test("enrol, play, seek, resume after a reload at the saved position, read a lesson offline", async ({ page, context }) => {
    await openMember(page);
    await expect(page.getByText("你还没有报名任何课程。")).toBeVisible();

    // The catalogue: a free course, enrol.
    const course = new CoursePage(page);
    await course.openFromCatalogue(/高效学习法/);
    await expect(page).toHaveURL(/\/course\/lesson\?id=\d+/);
    await course.enrolFree.click();
    await page.getByRole("link", { name: /为什么要制定学习计划/ }).click();
    await expect(page).toHaveURL(/\/player\/txPlayer\?id=\d+/);
    const lessonId = Number(new URL(page.url()).searchParams.get("id"));
    await serviceWorkerInControl(page);

    // Play, then seek forward 10 s, then pause: the position goes through the offline queue.
    const player = new Player(page);
    await player.play.click();
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 1, undefined, { timeout: 15_000 });
    await player.forward10.click();
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 11);
    await player.pause.click();
    const saved = await videoTime(page);
    expect(saved).toBeGreaterThan(11);
    expect(saved).toBeLessThan(28);
    await expect(new MemberShell(page).pendingSync).toHaveCount(0, { timeout: 15_000 });
    // The pause's report can reach the queue just after the seek's went out: wait for it.
    const serverProgress = () =>
      page.evaluate(async (id) => {
        const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
        return (await (await fetch(`/api/course/lesson?id=${id}`, { headers: { "ba-user-token": token } })).json()).data.lesson.progress as { position: number; completed: boolean };
      }, lessonId);
    await expect.poll(async () => Math.abs((await serverProgress()).position - saved) < 0.5, { timeout: 15_000 }).toBe(true);
    expect((await serverProgress()).completed).toBe(false);

    // Reload: the player resumes where the member stopped.
    await page.reload();
    await page.waitForFunction((at) => Math.abs((document.querySelector("video")?.currentTime ?? 0) - at) < 1, saved, { timeout: 15_000 });

    // A text lesson visited once online reads offline, as does the course page.
    await page.goto("/course/lesson?id=1");
    await page.getByRole("link", { name: /主动回忆与间隔重复/ }).click();
    await expect(course.notes).toContainText("间隔");
    const textLesson = page.url();
    await context.setOffline(true);
    await page.goto("/course/lesson?id=1");
    await expect(page.getByRole("heading", { name: /高效学习法/ })).toBeVisible();
    await page.goto(textLesson);
    await expect(course.notes).toContainText("间隔");
    await expect(new MemberShell(page).offlineNotice).toBeVisible();
    await context.setOffline(false);
  });

  test("a lesson video saved for offline plays and seeks with no network", async ({ page, context }) => {
    await openMember(page);
    const course = new CoursePage(page);
    await course.openFromCatalogue(/English for Exams/);
    await course.enrolFree.click();
    await page.getByRole("link", { name: /Skimming and scanning/ }).click();
    await lessonUnderWorker(page);
    await course.saveOffline.click();
    await expect(course.savedOffline).toBeVisible({ timeout: 15_000 });

    await context.setOffline(true);
    await page.reload();
    const player = new Player(page);
    await player.play.click();
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 1, undefined, { timeout: 15_000 });
    // Seeking needs range answers, sliced from the saved file by the service worker.
    await player.forward10.click();
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 11);
    await player.pause.click();

    // Removed: the video is gone from the device.
    await context.setOffline(false);
    await course.removeSaved();
    await expect(course.anySavedOnDevice).toHaveCount(0);
    expect(await page.evaluate(async () => (await (await caches.open("lesson-videos")).keys()).length)).toBe(0);
  });

  test("buy a paid course, save its HLS lesson for offline, and play it with no network", async ({ page, context, browser, server }) => {
    await openMember(page);
    const course = new CoursePage(page);
    await course.openFromCatalogue(/网页视频入门/);

    // Not enrolled yet: the free preview plays (which gives the page its media cookie), the paid
    // lessons' media are refused — to this member (403) and to a request without cookies (401).
    await page.getByRole("link", { name: /容器与编码/ }).click();
    await expect(page).toHaveURL(/\/player\/txPlayer\?id=\d+/);
    await page.waitForFunction(() => (document.querySelector("video")?.readyState ?? 0) >= 1, undefined, { timeout: 15_000 });
    expect(await mediaStatus(page, "/storage/course/demo-paid/pattern.mp4", "same-origin", "bytes=0-9")).toBe(206);
    for (const url of PAID_MEDIA) {
      expect(await mediaStatus(page, url), url).toBe(403);
      expect(await mediaStatus(page, url, "omit"), url).toBe(401);
    }
    await page.goBack();
    await page.getByRole("button", { name: "购买 ¥19.90" }).click();
    const dialog = page.getByRole("alertdialog", { name: "购买这门课程？" });
    await dialog.getByRole("button", { name: "支付 ¥19.90" }).click();
    await expect(page.getByText("已报名", { exact: true })).toBeVisible();
    const balance = await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem("userInfo")!).state.token as string;
      return (await (await fetch("/api/account/profile", { headers: { "ba-user-token": token } })).json()).data.userInfo.money;
    });
    expect(Number(balance)).toBeCloseTo(100 - 19.9, 2);

    await page.getByRole("link", { name: /HLS 流媒体/ }).click();
    await lessonUnderWorker(page);
    // Enrolled: the member's media answer 200/206 (before anything is saved on the device), and
    // still nothing without the member's cookie, here or in another browser.
    for (const url of PAID_MEDIA) {
      expect(await mediaStatus(page, url), url).toBe(200);
      expect(await mediaStatus(page, url, "same-origin", "bytes=0-9"), url).toBe(206);
      expect(await mediaStatus(page, url, "omit"), url).toBe(401);
    }
    const stranger = await browser.newContext();
    for (const url of PAID_MEDIA) expect((await stranger.request.get(`${server.url}${url}`)).status(), url).toBe(401);
    await stranger.close();
    await course.saveOffline.click();
    await expect(course.savedOffline).toBeVisible({ timeout: 15_000 });
    const saved = await page.evaluate(async () => (await (await caches.open("lesson-videos")).keys()).map((r) => new URL(r.url).pathname));
    expect(saved.filter((p) => p.endsWith(".m4s")).length).toBeGreaterThanOrEqual(6);
    // The HLS player (not precached) is kept by the service worker for offline use.
    const lazy = await page.evaluate(async () => (await (await caches.open("lazy-assets")).keys()).map((r) => new URL(r.url).pathname));
    expect(lazy.some((p) => /^\/assets\/hls-.+\.js$/.test(p))).toBe(true);

    await context.setOffline(true);
    await page.reload();
    const player = new Player(page);
    await player.play.click();
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 1, undefined, { timeout: 15_000 });
    await player.forward10.click();
    await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 11, undefined, { timeout: 15_000 });
    await player.pause.click();
    await context.setOffline(false);
  });

  test.describe("without the service worker", () => {
    // Nothing here is about the worker: its install would only cost the page's context CPU time.
    test.use({ serviceWorkers: "block" });

    test("leaving an HLS lesson for the next one keeps its position (saved before hls.js lets go of the video)", async ({ page }) => {
      await openMember(page);
      const course = new CoursePage(page);
      await course.openFromCatalogue(/English for Exams/);
      await expect(page).toHaveURL(/\/course\/lesson\?id=\d+/);
      // An earlier test may have enrolled the member in this course already.
      const enrol = course.enrolFree;
      const lesson = page.getByRole("link", { name: /Read the questions first/ });
      await expect(enrol.or(lesson).first()).toBeVisible();
      if (await enrol.isVisible()) await enrol.click();
      await lesson.click();
      await expect(page).toHaveURL(/\/player\/txPlayer\?id=\d+/);
      await page.waitForFunction(() => (document.querySelector("video")?.readyState ?? 0) >= 1, undefined, { timeout: 15_000 });

      // From the start (whatever an earlier visit left), then 10 s on.
      const player = new Player(page);
      await player.progress.focus();
      await page.keyboard.press("Home");
      await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 1) < 1);
      await player.forward10.click();
      await page.waitForFunction(() => Math.abs((document.querySelector("video")?.currentTime ?? 0) - 10) < 0.5);

      // Another screen, then back: the player resumes where the member left, not at the start.
      await page.getByRole("link", { name: /下一课时/ }).click();
      await expect(page.getByRole("heading", { name: "Vocabulary in context" })).toBeVisible();
      await page.goBack();
      await page.waitForFunction(() => (document.querySelector("video")?.readyState ?? 0) >= 1, undefined, { timeout: 15_000 });
      await page.waitForFunction(() => Math.abs((document.querySelector("video")?.currentTime ?? 0) - 10) < 1, undefined, { timeout: 15_000 });
    });
  });
});
