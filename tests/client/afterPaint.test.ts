import { describe, expect, it } from "vitest";
import { afterFirstPaint } from "../../src/client/ui/afterPaint.ts";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("afterFirstPaint", () => {
  it("runs once, after a frame and a task, not in the task that asked", async () => {
    let runs = 0;
    afterFirstPaint(() => runs++);
    expect(runs).toBe(0);
    await wait(700);
    // The frame's task and the fallback both came; it ran once.
    expect(runs).toBe(1);
  });

  it("runs by the fallback when no frame comes (a hidden tab)", async () => {
    const raf = globalThis.requestAnimationFrame;
    globalThis.requestAnimationFrame = () => 0;
    try {
      let runs = 0;
      afterFirstPaint(() => runs++, 50);
      await wait(20);
      expect(runs).toBe(0);
      await wait(80);
      expect(runs).toBe(1);
    } finally {
      globalThis.requestAnimationFrame = raf;
    }
  });

  it("never runs once cancelled (an unmounted screen)", async () => {
    let runs = 0;
    const cancel = afterFirstPaint(() => runs++, 50);
    cancel();
    await wait(150);
    expect(runs).toBe(0);
  });
});
