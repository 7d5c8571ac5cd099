import { describe, expect, it } from "vitest";
import { DEFAULT_TIME_FORMAT, dayIn, daysEndingAt, formatTime, toMilliseconds } from "../../src/shared/time.ts";

describe("toMilliseconds", () => {
  it.each([
    [1700000000, 1700000000000], // 10 digits: seconds
    ["1700000000", 1700000000000],
    [" 1700000000 ", 1700000000000],
    [9999999999, 9999999999000],
    [1000000000, 1000000000000],
    [1700000000123, 1700000000123], // 13 digits: milliseconds
    ["1700000000123", 1700000000123],
    [1700000000.5, 1700000000500],
    [0, 0],
    [999999999, 999999999], // 9 digits are not seconds
  ])("toMilliseconds(%j) = %j", (input, expected) => {
    expect(toMilliseconds(input)).toBe(expected);
  });

  it.each(["", "abc", "12:00"])("toMilliseconds(%j) is NaN", (input) => {
    expect(toMilliseconds(input)).toBeNaN();
  });
});

describe("formatTime", () => {
  // Built in local time, so the expectations hold in any time zone.
  const local = new Date(2024, 0, 2, 3, 4, 5);
  const ms = local.getTime();
  const seconds = Math.floor(ms / 1000);
  const evening = new Date(2023, 11, 31, 23, 59, 9).getTime();

  it("defaults to year-month-day hour:minute:second", () => {
    expect(DEFAULT_TIME_FORMAT).toBe("YYYY-MM-DD HH:mm:ss");
  });

  it.each([
    [seconds, undefined, "2024-01-02 03:04:05"],
    [String(seconds), undefined, "2024-01-02 03:04:05"],
    [ms, undefined, "2024-01-02 03:04:05"],
    [String(ms), undefined, "2024-01-02 03:04:05"],
    [local, undefined, "2024-01-02 03:04:05"],
    [evening, undefined, "2023-12-31 23:59:09"],
    [seconds, "YYYY-MM-DD", "2024-01-02"],
    [seconds, "HH:mm", "03:04"],
    [seconds, "YYYY/MM/DD HH:mm:ss", "2024/01/02 03:04:05"],
    [seconds, "DD.MM.YYYY", "02.01.2024"],
    [seconds, "YYYY年MM月DD日", "2024年01月02日"],
  ])("formatTime(%j, %j) = %j", (ts, format, expected) => {
    expect(formatTime(ts, format)).toBe(expected);
  });

  it.each([[null], [undefined], [""], [0], ["0"], ["abc"], [Number.NaN], [Number.POSITIVE_INFINITY], [new Date("x")]])(
    "formatTime(%j) = ''",
    (ts) => {
      expect(formatTime(ts)).toBe("");
    },
  );
});

describe("days in a member's time zone", () => {
  // 2026-11-28 18:55 UTC is 02:55 on the 29th in Shanghai and still the 28th in New York.
  const moment = Date.UTC(2026, 10, 28, 18, 55) / 1000;

  it("puts a moment on the day it is where the member lives", () => {
    expect(dayIn("Asia/Shanghai")(moment)).toBe("2026-11-29");
    expect(dayIn("UTC")(moment)).toBe("2026-11-28");
    expect(dayIn("America/New_York")(moment)).toBe("2026-11-28");
  });

  it("lists the week up to that day, across a month's end and a DST change", () => {
    expect(daysEndingAt(moment, "Asia/Shanghai", 7)).toEqual(["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]);
    expect(daysEndingAt(Date.UTC(2026, 2, 2, 12) / 1000, "UTC", 3)).toEqual(["2026-02-28", "2026-03-01", "2026-03-02"]);
    // New York moves its clocks on 2026-03-08: every day is there once.
    expect(daysEndingAt(Date.UTC(2026, 2, 9, 15) / 1000, "America/New_York", 3)).toEqual(["2026-03-07", "2026-03-08", "2026-03-09"]);
  });

  it("refuses a zone that does not exist", () => {
    expect(() => dayIn("Mars/Olympus")).toThrow(RangeError);
  });
});
