import { afterEach, describe, expect, it, vi } from "vitest";
import { nextTask, nextUrgentTask } from "../../src/client/browser/nextTask.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("nextUrgentTask", () => {
  it("asks the browser's scheduler for a user-blocking task where there is one", async () => {
    const postTask = vi.fn((task: () => void) => Promise.resolve().then(task));
    vi.stubGlobal("scheduler", { postTask });
    await nextUrgentTask();
    expect(postTask).toHaveBeenCalledWith(expect.any(Function), { priority: "user-blocking" });
  });

  it("is a plain next task without one, never the task that asked", async () => {
    vi.stubGlobal("scheduler", undefined);
    const order: string[] = [];
    const urgent = nextUrgentTask().then(() => order.push("urgent"));
    const plain = nextTask().then(() => order.push("plain"));
    order.push("asked");
    await Promise.all([urgent, plain]);
    expect(order).toEqual(["asked", "urgent", "plain"]);
  });
});
