import { expect, serviceWorkerInControl, test } from "./server.ts";

// The service worker stays on here (the config blocks it): this spec shows push notifications through the service worker.
test.use({ serviceWorkers: "allow" });

/**
 * The service worker's side of the push reminders, in Chromium: a push message is
 * delivered to the app's registration through the DevTools protocol (what the browser does when
 * the push service sends one; headless Chromium cannot subscribe to a real push service), and
 * the worker shows the notification with its text and a same-origin link only.
 */
test("a push message becomes a notification; a link elsewhere is replaced by the app's home", async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  await context.grantPermissions(["notifications"], { origin });
  await page.goto("/");
  await serviceWorkerInControl(page);

  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations: list }) => {
    for (const r of list) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
  });
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => registrations.get(`${origin}/`) ?? null).not.toBeNull();
  const registrationId = registrations.get(`${origin}/`)!;

  const notifications = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url }));
    });

  type Shown = Awaited<ReturnType<typeof notifications>>[number];
  // Delivers a push message and waits for the notification `pick` finds. Under load, a message
  // delivered through the DevTools protocol while the worker is being stopped is sometimes
  // dropped by Chromium before the worker sees it (a real push service redelivers); the message
  // is then delivered again. What the worker shows is asserted either way.
  async function pushAndSee(data: string, pick: (shown: Shown[]) => Shown | undefined): Promise<Shown> {
    let found: Shown | undefined;
    await expect(async () => {
      await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data });
      await expect.poll(async () => (found = pick(await notifications())) ?? null, { timeout: 4_000 }).not.toBeNull();
    }).toPass({ timeout: 40_000 });
    return found!;
  }

  const due = await pushAndSee(JSON.stringify({ title: "3 reviews due today", body: "About 2 minutes", url: "/user/exam/review", tag: "review-due", badge: 3 }), (all) =>
    all.find((n) => n.tag === "review-due"),
  );
  expect(due).toEqual({ title: "3 reviews due today", body: "About 2 minutes", tag: "review-due", url: `${origin}/user/exam/review` });

  // A message whose link points elsewhere (or is not a path) still opens only the app.
  const room = await pushAndSee(JSON.stringify({ title: "Room opens", body: "x", url: "//evil.example/phish", tag: "room" }), (all) => all.find((n) => n.tag === "room"));
  expect(room.url).toBe(`${origin}/`);

  // Not JSON: its text is the body, under the app's name.
  const text = await pushAndSee("plain text reminder", (all) => all.find((n) => n.body === "plain text reminder"));
  expect(text.title).toBe("ExamHub");
});
