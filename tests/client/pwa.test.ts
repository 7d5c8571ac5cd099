import { describe, expect, it } from "vitest";
import { isTakingTest } from "../../src/client/pwa/register.ts";

describe("update prompt timing", () => {
  it.each([
    ["/exam/my_test_detail", true],
    ["/exam/my_test_detail?attempt=x", true],
    ["/exam/myPractice", false],
    ["/", false],
  ])("%s -> %s", (path, expected) => {
    expect(isTakingTest(path)).toBe(expected);
  });
});
