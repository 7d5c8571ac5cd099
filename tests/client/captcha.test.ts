import { describe, expect, it } from "vitest";
import { formatClickInfo } from "../../src/client/ui/captcha/clickInfo.ts";

describe("click captcha info (API.md)", () => {
  it.each([
    [[{ x: 10, y: 20 }, { x: 30.456, y: 40 }], 350, 200, "10,20-30.46,40;350;200"],
    [[{ x: 1, y: 2 }], 175.5, 100, "1,2;175.5;100"],
  ])("formats %j on %ix%i", (points, w, h, expected) => {
    expect(formatClickInfo(points, w, h)).toBe(expected);
  });
});
