import { describe, expect, it, vi } from "vitest";
import { onceUntilFailed } from "../../src/shared/once.ts";

describe("onceUntilFailed (the lazy chunks' loader: axios, sonner, nprogress)", () => {
  it("runs the load once for every caller, at the same time or later", async () => {
    const load = vi.fn(async () => ({ chunk: 1 }));
    const get = onceUntilFailed(load);
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(await get()).toBe(a);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("answers a failure to the callers waiting on it, then runs the load again", async () => {
    let fail = true;
    const load = vi.fn(async () => {
      if (fail) throw new Error("offline");
      return "loaded";
    });
    const get = onceUntilFailed(load);
    const waiting = [get(), get()];
    await expect(Promise.all(waiting)).rejects.toThrow("offline");
    expect(load).toHaveBeenCalledTimes(1);
    fail = false;
    expect(await get()).toBe("loaded");
    expect(await get()).toBe("loaded");
    expect(load).toHaveBeenCalledTimes(2);
  });
});
