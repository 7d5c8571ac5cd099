import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DB_INT_MAX, MAX_INSPECTED_VALUES, dbId, dbIdKey, dbIdParam, dbInt, dbIntParam, hasUnsafeText, isSafeText, safeText, toSafeText } from "../../src/shared/schema.ts";

const anyUnits = fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), fc.constantFrom("\u0000", "\ud83d", "\ude00", "😀")) });

describe("isSafeText", () => {
  it("refuses NUL and unpaired surrogates, accepts everything else", () => {
    for (const bad of ["\u0000", "a\u0000b", "\ud800", "a\ud800b", "\udc00", "x\udfff", "\udc00\ud800", "😀\ud83d"]) expect(isSafeText(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ["", "abc", "中文", "😀", "a😀b", "\u0001\u001f\u007f", "\ufffd", "\uffff"]) expect(isSafeText(good), JSON.stringify(good)).toBe(true);
  });

  it("agrees with what UTF-8 can carry (property)", () => {
    fc.assert(
      // Any UTF-16 code units: surrogate pairs, lone halves and NUL included.
      fc.property(anyUnits, (text) => {
        const roundTrip = new TextDecoder().decode(new TextEncoder().encode(text)) === text;
        expect(isSafeText(text)).toBe(roundTrip && !text.includes("\u0000"));
      }),
    );
  });
});

describe("toSafeText", () => {
  it("drops NULs and replaces unpaired surrogates, keeping the rest", () => {
    expect(toSafeText("a\u0000b")).toBe("ab");
    expect(toSafeText("x\ud800y😀")).toBe("x\ufffdy😀");
    expect(toSafeText("\udc00\ud800")).toBe("\ufffd\ufffd");
  });

  it("always answers safe text, and leaves safe text alone (property)", () => {
    fc.assert(
      fc.property(anyUnits, (text) => {
        const safe = toSafeText(text);
        expect(isSafeText(safe)).toBe(true);
        if (isSafeText(text)) expect(safe).toBe(text);
        // What UTF-8 makes of the text, without the NULs.
        expect(safe).toBe(new TextDecoder().decode(new TextEncoder().encode(text)).replaceAll("\u0000", ""));
      }),
    );
  });
});

describe("without String.prototype.isWellFormed / toWellFormed (older browsers)", () => {
  it("answers the same (property)", () => {
    const proto = String.prototype as unknown as Record<string, unknown>;
    const saved = (["isWellFormed", "toWellFormed"] as const).map((name) => [name, Object.getOwnPropertyDescriptor(String.prototype, name)!] as const);
    const results = fc.sample(anyUnits, 300).map((text) => [text, isSafeText(text), toSafeText(text)] as const);
    delete proto.isWellFormed;
    delete proto.toWellFormed;
    try {
      expect(proto.isWellFormed ?? proto.toWellFormed).toBeUndefined();
      for (const [text, safe, cleaned] of results) {
        expect(isSafeText(text)).toBe(safe);
        expect(toSafeText(text)).toBe(cleaned);
      }
    } finally {
      for (const [name, descriptor] of saved) Object.defineProperty(String.prototype, name, descriptor);
    }
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
