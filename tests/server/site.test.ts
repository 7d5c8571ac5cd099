import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/server/config.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

describe("site config: the administrator's contact (SITE_CONTACT)", () => {
  let withContact: TestApp;
  let without: TestApp;
  beforeAll(async () => {
    withContact = await createTestApp({ config: { siteContactUrl: loadConfig({ SITE_CONTACT: "help@example.com" }).siteContactUrl } });
    without = await createTestApp();
  });
  afterAll(async () => {
    await withContact.close();
    await without.close();
  });

  const siteConfig = async (t: TestApp) => {
    const res = await t.app.inject({ method: "GET", url: "/api/index/index" });
    expect(res.json().code).toBe(1);
    return res.json().data.siteConfig as { contactUrl: string };
  };

  it("is sent to every visitor as a link the 401 page can use", async () => {
    expect((await siteConfig(withContact)).contactUrl).toBe("mailto:help@example.com");
  });

  it("is empty when the site has none, so the page leaves the link out", async () => {
    expect((await siteConfig(without)).contactUrl).toBe("");
  });
});
