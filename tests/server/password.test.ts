import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../src/server/auth/password.ts";

describe("password hashing", () => {
  it("verifies the right password only, with a fresh salt each time", async () => {
    const a = await hashPassword("correct horse");
    const b = await hashPassword("correct horse");
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct horsf", a)).toBe(false);
    expect(await verifyPassword("correct horse", "md5$abc")).toBe(false);
  });
});
