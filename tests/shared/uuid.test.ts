import { afterEach, describe, expect, it, vi } from "vitest";
import { UUID_LENGTH } from "../../src/shared/constants.ts";
import { uuid } from "../../src/shared/uuid.ts";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("uuid", () => {
  it("is a 36-character v4 uuid from crypto.randomUUID when available", () => {
    const spy = vi.spyOn(globalThis.crypto, "randomUUID");
    const id = uuid();
    expect(spy).toHaveBeenCalledOnce();
    expect(id).toHaveLength(UUID_LENGTH);
    expect(id).toMatch(V4);
  });

  it("is unique", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => uuid()));
    expect(ids.size).toBe(1000);
  });

  describe("without randomUUID (insecure context)", () => {
    const realCrypto = globalThis.crypto;
    const getRandomValues = (array: Uint8Array<ArrayBuffer>) => realCrypto.getRandomValues(array);

    it("builds a v4 uuid from getRandomValues", () => {
      const spy = vi.fn(getRandomValues);
      vi.stubGlobal("crypto", { getRandomValues: spy });
      expect(globalThis.crypto.randomUUID).toBeUndefined();
      const ids = Array.from({ length: 200 }, () => uuid());
      expect(spy).toHaveBeenCalledTimes(200);
      for (const id of ids) {
        expect(id).toHaveLength(36);
        expect(id).toMatch(V4);
      }
      expect(new Set(ids).size).toBe(200);
    });

    it.each([
      [0x00, "00000000-0000-4000-8000-000000000000"],
      [0xff, "ffffffff-ffff-4fff-bfff-ffffffffffff"],
      [0xab, "abababab-abab-4bab-abab-abababababab"],
    ])("sets the version and variant bits (all bytes %i)", (byte, expected) => {
      vi.stubGlobal("crypto", {
        getRandomValues: (array: Uint8Array<ArrayBuffer>) => array.fill(byte),
      });
      expect(uuid()).toBe(expected);
    });

    it("throws when there is no crypto at all", () => {
      vi.stubGlobal("crypto", undefined);
      expect(() => uuid()).toThrow(/getRandomValues/);
    });
  });
});
