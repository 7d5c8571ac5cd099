import { expect, serviceWorkerInControl, test } from "./server.ts";

/**
 * The service worker's side of the push reminders (issue 18), in Chromium: a push message is
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

  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin,
    registrationId,
    data: JSON.stringify({ title: "3 reviews due today", body: "About 2 minutes", url: "/user/exam/review", tag: "review-due", badge: 3 }),
  });
  await expect.poll(notifications).toEqual([{ title: "3 reviews due today", body: "About 2 minutes", tag: "review-due", url: `${origin}/user/exam/review` }]);

  // A message whose link points elsewhere (or is not a path) still opens only the app.
  await cdp.send("ServiceWorker.deliverPushMessage", {
    origin,
    registrationId,
    data: JSON.stringify({ title: "Room opens", body: "x", url: "//evil.example/phish", tag: "room" }),
  });
  await expect.poll(async () => (await notifications()).find((n) => n.tag === "room")?.url ?? null).toBe(`${origin}/`);

  // Not JSON: its text is the body, under the app's name.
  await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: "plain text reminder" });
  await expect.poll(async () => (await notifications()).find((n) => n.body === "plain text reminder")?.title ?? null).toBe("ExamHub");
});
