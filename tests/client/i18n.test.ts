import { afterEach, describe, expect, it, vi } from "vitest";
import { changeLanguage, storedLanguage } from "../../src/client/i18n/index.ts";
import { STORE_CONFIG } from "../../src/client/stores/keys.ts";
import { useConfig } from "../../src/client/stores/config.ts";

describe("language choice", () => {
  afterEach(async () => {
    localStorage.clear();
    await useConfig.persist.rehydrate();
    vi.restoreAllMocks();
  });

  it("defaults to zh-cn and falls back to it for unknown stored values", async () => {
    expect(storedLanguage()).toBe("zh-cn");
    localStorage.setItem(STORE_CONFIG, JSON.stringify({ state: { lang: { defaultLang: "fr" } }, version: 0 }));
    await useConfig.persist.rehydrate();
    expect(storedLanguage()).toBe("zh-cn");
  });

  it("stores the choice under the config key and reloads the page", () => {
    const reload = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, reload } as Location);
    changeLanguage("en");
    expect(JSON.parse(localStorage.getItem(STORE_CONFIG)!).state.lang.defaultLang).toBe("en");
    expect(reload).toHaveBeenCalledOnce();
    expect(storedLanguage()).toBe("en");
  });
});
