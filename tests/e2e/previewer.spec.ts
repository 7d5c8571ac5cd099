import { expect, test } from "./server.ts";

test.describe("image previewer", () => {
  test.beforeEach(async ({ page }) => {
    // English, so the assertions read like the source strings.
    await page.addInitScript(() =>
      localStorage.setItem("storeConfig", JSON.stringify({ state: { lang: { defaultLang: "en" } }, version: 0 })),
    );
  });

  test("opens a screenshot full screen: next, zoom limits, reset, Esc", async ({ page }) => {
    await page.goto("/");
    const opener = page.getByRole("button", { name: "Open screenshot 1" });
    await opener.click();

    const dialog = page.getByRole("dialog", { name: "Image preview" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Image 1 of 2")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Previous image" })).toBeDisabled();
    const image = dialog.getByRole("img", { name: "Image 1 of 2" });
    await expect(image).toHaveAttribute("src", "/screenshots/desktop-zh-cn.png");
    // The image really loads (served from public/screenshots).
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    await page.keyboard.press("ArrowRight");
    await expect(dialog.getByText("Image 2 of 2")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Next image" })).toBeDisabled();
    await expect(dialog.getByRole("img", { name: "Image 2 of 2" })).toHaveAttribute("src", "/screenshots/phone-zh-cn.png");

    const zoom = dialog.getByRole("status", { name: "Zoom level" });
    await expect(zoom).toHaveText("100%");

    // 1 -> 4 is 30 steps of 0.1; further presses stay at 400%.
    for (let i = 0; i < 30; i++) await page.keyboard.press("+");
    await expect(zoom).toHaveText("400%");
    for (let i = 0; i < 5; i++) await page.keyboard.press("+");
    await expect(zoom).toHaveText("400%");

    // 4 -> 0.5 is 35 steps; further presses stay at 50%.
    for (let i = 0; i < 35; i++) await page.keyboard.press("-");
    await expect(zoom).toHaveText("50%");
    for (let i = 0; i < 5; i++) await page.keyboard.press("-");
    await expect(zoom).toHaveText("50%");

    await page.keyboard.press("0");
    await expect(zoom).toHaveText("100%");

    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
  });

  test("closes on a click on the mask, not on the image", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Open screenshot 2" }).click();
    const dialog = page.getByRole("dialog", { name: "Image preview" });
    await expect(dialog.getByText("Image 2 of 2")).toBeVisible();

    await dialog.getByRole("img", { name: "Image 2 of 2" }).click();
    await expect(dialog).toBeVisible();

    // The mask around the image: its top-left corner lies outside the centred image.
    await page.locator("[data-previewer-mask]").click({ position: { x: 5, y: 5 } });
    await expect(dialog).toHaveCount(0);
  });
});
