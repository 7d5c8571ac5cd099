import type * as ApiModule from "../../src/client/api/index.ts";
import type { AxiosRequestConfig } from "axios";
import { afterEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import { loadSiteConfig, SITE_CONFIG_STALE_MS } from "../../src/client/app/siteConfig.ts";
import { STORE_SITE_CONFIG } from "../../src/client/stores/keys.ts";
import { defaultSiteConfig, useSiteConfig } from "../../src/client/stores/siteConfig.ts";

/** The site config of an open page follows a save in the back office (the member's header and footer name the site). */
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

let siteName = "ExamHub";
const indexCalls = () => vi.mocked(request).mock.calls.filter(([c]) => (c as AxiosRequestConfig).url === "/api/index/index").length;

vi.mocked(request).mockImplementation((async () => ({ code: 1, msg: "", time: 0, data: { siteConfig: { siteName } } })) as never);

afterEach(() => {
  vi.useRealTimers();
  useSiteConfig.setState(defaultSiteConfig);
});

function setVisibility(state: "visible" | "hidden") {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}

describe("the site config of an open page", () => {
  it("follows a save made in another tab of the browser at once", async () => {
    await loadSiteConfig();
    expect(useSiteConfig.getState().siteName).toBe("ExamHub");
    // The config screen in another tab saved: its copy of the store is what localStorage holds now.
    const stored = { state: { ...defaultSiteConfig, siteName: "Acme Training" }, version: 0 };
    localStorage.setItem(STORE_SITE_CONFIG, JSON.stringify(stored));
    window.dispatchEvent(new StorageEvent("storage", { key: STORE_SITE_CONFIG, newValue: JSON.stringify(stored) }));
    await vi.waitFor(() => expect(useSiteConfig.getState().siteName).toBe("Acme Training"));
  });

  it("asks the server again when the page comes back into view after a while, not on every glance", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await loadSiteConfig();
    const before = indexCalls();
    setVisibility("hidden");
    setVisibility("visible");
    expect(indexCalls()).toBe(before);
    siteName = "Exam Centre";
    vi.setSystemTime(Date.now() + SITE_CONFIG_STALE_MS + 1000);
    setVisibility("hidden");
    setVisibility("visible");
    expect(indexCalls()).toBe(before + 1);
    await vi.waitFor(() => expect(useSiteConfig.getState().siteName).toBe("Exam Centre"));
  });
});
