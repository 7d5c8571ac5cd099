import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DB_INT_MAX, MAX_INSPECTED_VALUES, dbId, dbIdKey, dbIdParam, dbInt, dbIntParam, hasUnsafeText, isSafeText, safeText } from "../../src/shared/schema.ts";

describe("isSafeText", () => {
  it("refuses NUL and unpaired surrogates, accepts everything else", () => {
    for (const bad of ["\u0000", "a\u0000b", "\ud800", "a\ud800b", "\udc00", "x\udfff", "\udc00\ud800", "😀\ud83d"]) expect(isSafeText(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ["", "abc", "中文", "😀", "a😀b", "\u0001\u001f\u007f", "\ufffd", "\uffff"]) expect(isSafeText(good), JSON.stringify(good)).toBe(true);
  });

  it("agrees with what UTF-8 can carry (property)", () => {
    fc.assert(
      // Any UTF-16 code units: surrogate pairs, lone halves and NUL included.
      fc.property(fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), fc.constantFrom("\u0000", "\ud83d", "\ude00", "😀")) }), (text) => {
        const roundTrip = new TextDecoder().decode(new TextEncoder().encode(text)) === text;
        expect(isSafeText(text)).toBe(roundTrip && !text.includes("\u0000"));
      }),
    );
  });
});

describe("hasUnsafeText", () => {
  it("looks into strings, keys, arrays and objects however deep", () => {
    expect(hasUnsafeText({ a: 1, b: [true, null, "x", { c: "ok" }] })).toBe(false);
    expect(hasUnsafeText({ a: [{ b: [{ c: "\u0000" }] }] })).toBe(true);
    expect(hasUnsafeText({ "k\ud800": 1 })).toBe(true);
    expect(hasUnsafeText(["\udfff"])).toBe(true);
    expect(hasUnsafeText(undefined)).toBe(false);
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(hasUnsafeText(deep)).toBe(true);
  });

  it("counts a value too big to inspect as unsafe", () => {
    expect(hasUnsafeText(Array.from({ length: MAX_INSPECTED_VALUES - 10 }, () => 1))).toBe(false);
    expect(hasUnsafeText(Array.from({ length: MAX_INSPECTED_VALUES + 10 }, () => 1))).toBe(true);
  });
});

describe("bounded schemas", () => {
  it("ids fit an integer column", () => {
    expect(dbId.safeParse(1).success).toBe(true);
    expect(dbId.safeParse(DB_INT_MAX).success).toBe(true);
    for (const bad of [0, -1, DB_INT_MAX + 1, 2 ** 63, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "1", null]) expect(dbId.safeParse(bad).success, String(bad)).toBe(false);
  });

  it("query ids are decimal text within the same bounds", () => {
    expect(dbIdParam.safeParse("12").data).toBe(12);
    for (const bad of ["0", "-1", "2147483648", "9223372036854775808", "1e400", "NaN", "", "abc", "1.5"]) expect(dbIdParam.safeParse(bad).success, bad).toBe(false);
    expect(dbIntParam(1, 100).safeParse("101").success).toBe(false);
    expect(dbIntParam(1, 100).safeParse("100").data).toBe(100);
  });

  it("keys of question ids", () => {
    expect(dbIdKey.safeParse("2147483647").success).toBe(true);
    for (const bad of ["0", "007", "2147483648", "99999999999", "1\u0000", "-1", ""]) expect(dbIdKey.safeParse(bad).success, bad).toBe(false);
  });

  it("ranges never leave the int4 range", () => {
    expect(dbInt(-(2 ** 40), 2 ** 40).safeParse(2 ** 31).success).toBe(false);
    expect(dbInt(-(2 ** 40), 2 ** 40).safeParse(-(2 ** 31)).success).toBe(true);
    expect(dbInt(0).safeParse(0).success).toBe(true);
  });

  it("text refuses NUL and unpaired surrogates, and keeps its length limit", () => {
    expect(safeText(5).safeParse("héllo").success).toBe(true);
    expect(safeText(5).safeParse("abcdef").success).toBe(false);
    expect(safeText(5).safeParse("a\u0000").success).toBe(false);
    expect(safeText(5).safeParse("\ud800").success).toBe(false);
  });
});
