import { afterEach, describe, expect, it, vi } from "vitest";
import { LANGUAGE_STORAGE_KEY, changeLanguage, storedLanguage } from "../../src/client/i18n/index.ts";

describe("language choice", () => {
  afterEach(() => {
    localStorage.clear();
    vi.restoreAllMocks();
  });

  it("defaults to zh-cn and falls back to it for unknown values", () => {
    expect(storedLanguage()).toBe("zh-cn");
    localStorage.setItem(LANGUAGE_STORAGE_KEY, "fr");
    expect(storedLanguage()).toBe("zh-cn");
  });

  it("stores the choice and reloads the page", () => {
    const reload = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, reload } as Location);
    changeLanguage("en");
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe("en");
    expect(reload).toHaveBeenCalledOnce();
    expect(storedLanguage()).toBe("en");
  });
});
