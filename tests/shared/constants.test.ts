import { describe, expect, it } from "vitest";
import { resolveLanguage } from "../../src/shared/constants.ts";

describe("resolveLanguage", () => {
  it("accepts the supported languages in any case", () => {
    expect(resolveLanguage("en")).toBe("en");
    expect(resolveLanguage("ZH-CN")).toBe("zh-cn");
    expect(resolveLanguage("en-US")).toBe("en");
  });
  it("falls back to zh-cn", () => {
    expect(resolveLanguage(undefined)).toBe("zh-cn");
    expect(resolveLanguage("fr")).toBe("zh-cn");
    expect(resolveLanguage(["en"])).toBe("zh-cn");
  });
});
