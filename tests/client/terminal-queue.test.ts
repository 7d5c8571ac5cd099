import { describe, expect, it } from "vitest";
import {
  addTask,
  canDelete,
  clearSuccessTasks,
  createTask,
  deleteTask,
  isBlocked,
  nextTaskIndex,
  receive,
  restore,
  retryTask,
  setShow,
  streamFailed,
  toggleMessage,
  type QueueState,
  type TerminalTask,
} from "../../src/client/admin/terminal/queue.ts";
import { parseAnsi } from "../../src/client/admin/terminal/ansi.ts";
import { sseEvents } from "../../src/client/admin/terminal/stream.ts";
import { TaskStatus } from "../../src/shared/terminal.ts";

/** Every rule of the terminal's task queue (SPEC §4), one transition at a time. */

const { Waiting, Connecting, Executing, Success, Failed, Unknown } = TaskStatus;
let serial = 0;
const task = (status: TaskStatus = Waiting, blockOnFailure = true, command = "version.node"): TerminalTask => ({
  ...createTask(command, { uuid: `00000000-0000-4000-8000-${String(++serial).padStart(12, "0")}`, now: 1_700_000_000, blockOnFailure }),
  status,
});
const state = (taskList: TerminalTask[], extra: Partial<QueueState> = {}): QueueState => ({ show: true, showDot: false, taskList, automaticCleanupTask: 0, ...extra });
const statuses = (s: QueueState) => s.taskList.map((t) => t.status);

describe("a new task", () => {
  it("starts Waiting with no output, blocking on failure unless told otherwise", () => {
    const t = createTask("install.pnpm", { uuid: "u".repeat(36), now: 5, extend: "e" });
    expect(t).toEqual({ uuid: "u".repeat(36), createTime: 5, status: Waiting, command: "install.pnpm", message: [], showMessage: false, blockOnFailure: true, extend: "e" });
    expect(createTask("x.y", { uuid: "a", now: 1, blockOnFailure: false }).blockOnFailure).toBe(false);
  });

  it("is started at once when nothing runs: Connecting, and its stream opens", () => {
    const t = task();
    const { state: s, effects } = addTask(state([]), t);
    expect(statuses(s)).toEqual([Connecting]);
    expect(effects).toEqual([{ type: "open", task: { ...t, status: Connecting } }]);
  });

  it("waits behind a task that is Connecting or Executing", () => {
    for (const running of [Connecting, Executing]) {
      const { state: s, effects } = addTask(state([task(running)]), task());
      expect(statuses(s)).toEqual([running, Waiting]);
      expect(effects).toEqual([]);
    }
  });
});

describe("which task the queue starts", () => {
  it("the first Waiting task", () => {
    expect(nextTaskIndex([task(Success), task(Waiting), task(Waiting)])).toBe(1);
    expect(nextTaskIndex([])).toBeNull();
    expect(nextTaskIndex([task(Success)])).toBeNull();
  });

  it("none while an earlier task is Connecting or Executing", () => {
    expect(nextTaskIndex([task(Connecting), task(Waiting)])).toBeNull();
    expect(nextTaskIndex([task(Executing), task(Waiting)])).toBeNull();
  });

  it("none behind a Failed or Unknown task with blockOnFailure", () => {
    expect(nextTaskIndex([task(Failed, true), task(Waiting)])).toBeNull();
    expect(nextTaskIndex([task(Unknown, true), task(Waiting)])).toBeNull();
  });

  it("passes over Failed and Unknown tasks without blockOnFailure", () => {
    expect(nextTaskIndex([task(Failed, false), task(Unknown, false), task(Success), task(Waiting)])).toBe(3);
  });
});

describe("stream events", () => {
  const running = () => {
    const t = task(Connecting);
    return { t, s: state([t, task()]) };
  };

  it("link-success: Executing", () => {
    const { t, s } = running();
    const next = receive(s, t.uuid, "command-link-success");
    expect(statuses(next.state)).toEqual([Executing, Waiting]);
    expect(next.effects).toEqual([]);
  });

  it("exec-success: Success (the stream stays open for its completion)", () => {
    const { t, s } = running();
    const next = receive(receive(s, t.uuid, "command-link-success").state, t.uuid, "command-exec-success");
    expect(statuses(next.state)).toEqual([Success, Waiting]);
    expect(next.effects).toEqual([]);
  });

  it("exec-error: Failed, the stream closes, the callback hears it, the queue goes on", () => {
    const t = task(Executing, false);
    const after = task();
    const next = receive(state([t, after]), t.uuid, "command-exec-error");
    expect(statuses(next.state)).toEqual([Failed, Connecting]);
    expect(next.effects).toEqual([
      { type: "close", uuid: t.uuid },
      { type: "completed", uuid: t.uuid, status: Failed },
      { type: "open", task: { ...after, status: Connecting } },
    ]);
  });

  it("exec-completed after success: stays Success, closes, calls back, starts the next", () => {
    const t = task(Success);
    const after = task();
    const next = receive(state([{ ...t, status: Success }, after]), t.uuid, "command-exec-completed");
    expect(statuses(next.state)).toEqual([Success, Connecting]);
    expect(next.effects.map((e) => e.type)).toEqual(["close", "completed", "open"]);
    expect(next.effects[1]).toEqual({ type: "completed", uuid: t.uuid, status: Success });
  });

  it("exec-completed without success: Failed", () => {
    const t = task(Executing);
    const next = receive(state([t]), t.uuid, "command-exec-completed");
    expect(statuses(next.state)).toEqual([Failed]);
    expect(next.effects).toEqual([{ type: "close", uuid: t.uuid }, { type: "completed", uuid: t.uuid, status: Failed }]);
  });

  it("any other data is a line of output", () => {
    const t = task(Executing);
    const s1 = receive(state([t]), t.uuid, "v20.20.2").state;
    const s2 = receive(s1, t.uuid, "\u001b[32mdone\u001b[39m").state;
    expect(s2.taskList[0]!.message).toEqual(["v20.20.2", "\u001b[32mdone\u001b[39m"]);
    expect(s2.taskList[0]!.status).toBe(Executing);
  });

  it("events of a task no longer listed change nothing", () => {
    const s = state([task(Executing)]);
    expect(receive(s, "gone", "line")).toEqual({ state: s, effects: [] });
  });

  it("a stream error marks the task Failed with the reason, and the queue goes on", () => {
    const t = task(Connecting, false);
    const after = task();
    const next = streamFailed(state([t, after]), t.uuid, "Server exception!");
    expect(statuses(next.state)).toEqual([Failed, Connecting]);
    expect(next.state.taskList[0]!.message).toEqual(["Server exception!"]);
    expect(next.effects.map((e) => e.type)).toEqual(["close", "completed", "open"]);
  });

  it("a stream that ends after its completion line changes nothing", () => {
    const s = state([task(Success), task(Failed, false)]);
    expect(streamFailed(s, s.taskList[0]!.uuid, "closed")).toEqual({ state: s, effects: [] });
    expect(streamFailed(s, s.taskList[1]!.uuid, "closed")).toEqual({ state: s, effects: [] });
  });
});

describe("a failed task that blocks", () => {
  it("shows its output when it fails or is unknown; one that does not block stays folded", () => {
    const blocking = task(Executing, true);
    expect(receive(state([blocking]), blocking.uuid, "command-exec-error").state.taskList[0]!.showMessage).toBe(true);
    const quiet = task(Executing, false);
    expect(receive(state([quiet]), quiet.uuid, "command-exec-error").state.taskList[0]!.showMessage).toBe(false);
    expect(restore(state([task(Executing, true)])).taskList[0]!.showMessage).toBe(true);
  });

  it("while the panel is closed, adding a task reports: newly added tasks will never start", () => {
    const { state: s, effects } = addTask(state([task(Failed, true)], { show: false }), task());
    expect(effects).toEqual([{ type: "blocked" }]);
    expect(statuses(s)).toEqual([Failed, Waiting]);
    expect(addTask(state([task(Unknown, true)], { show: false }), task()).effects).toEqual([{ type: "blocked" }]);
  });

  it("with the panel open, or when the failure does not block, nothing is reported", () => {
    expect(addTask(state([task(Failed, true)], { show: true }), task()).effects).toEqual([]);
    expect(addTask(state([task(Failed, false)], { show: false }), task()).effects.map((e) => e.type)).toEqual(["open"]);
  });

  it("isBlocked: a blocking failure before a waiting task", () => {
    expect(isBlocked([task(Failed, true), task()])).toBe(true);
    expect(isBlocked([task(Failed, true)])).toBe(false);
    expect(isBlocked([task(), task(Failed, true)])).toBe(false);
    expect(isBlocked([task(Failed, false), task()])).toBe(false);
  });
});

describe("retry", () => {
  it("clears the output and waits again, then the queue starts it", () => {
    const t = { ...task(Failed), message: ["boom"], showMessage: true };
    const next = retryTask(state([t]), t.uuid);
    expect(next.state.taskList[0]).toMatchObject({ status: Connecting, message: [] });
    expect(next.effects.map((e) => e.type)).toEqual(["open"]);
  });

  it("waits behind a running task", () => {
    const t = { ...task(Unknown), message: ["?"] };
    const next = retryTask(state([task(Executing), t]), t.uuid);
    expect(next.state.taskList[1]).toMatchObject({ status: Waiting, message: [] });
    expect(next.effects).toEqual([]);
  });

  it("does nothing to a running task", () => {
    const s = state([task(Executing)]);
    expect(retryTask(s, s.taskList[0]!.uuid)).toEqual({ state: s, effects: [] });
  });
});

describe("delete", () => {
  it("is refused while Connecting or Executing", () => {
    for (const status of [Connecting, Executing]) {
      const s = state([task(status)]);
      expect(canDelete(s.taskList[0]!)).toBe(false);
      expect(deleteTask(s, s.taskList[0]!.uuid)).toEqual({ state: s, effects: [] });
    }
  });

  it("removes a Waiting, Success, Failed or Unknown task", () => {
    for (const status of [Waiting, Success, Failed, Unknown]) {
      const s = state([task(status)]);
      expect(canDelete(s.taskList[0]!)).toBe(true);
      expect(deleteTask(s, s.taskList[0]!.uuid).state.taskList).toEqual([]);
    }
  });

  it("deleting the task that blocked lets the queue go on", () => {
    const blocker = task(Failed, true);
    const next = deleteTask(state([blocker, task()]), blocker.uuid);
    expect(statuses(next.state)).toEqual([Connecting]);
    expect(next.effects.map((e) => e.type)).toEqual(["open"]);
  });
});

describe("clean-up of successful tasks", () => {
  it("clearing removes all Success tasks and nothing else", () => {
    const s = state([task(Success), task(Failed), task(Success), task(Executing), task(Unknown)]);
    expect(statuses(clearSuccessTasks(s))).toEqual([Failed, Executing, Unknown]);
  });

  it("runs when a task is added with automatic clean-up 1", () => {
    const s = state([task(Success), task(Failed, false), task(Success)], { automaticCleanupTask: 1 });
    expect(statuses(addTask(s, task()).state)).toEqual([Failed, Connecting]);
  });

  it("does not run with automatic clean-up 0", () => {
    const s = state([task(Success)], { automaticCleanupTask: 0 });
    expect(statuses(addTask(s, task()).state)).toEqual([Success, Connecting]);
  });
});

describe("start-up", () => {
  it("Connecting and Executing tasks become Unknown; the others stay", () => {
    const s = state([task(Waiting), task(Connecting), task(Executing), task(Success), task(Failed)]);
    expect(statuses(restore(s))).toEqual([Waiting, Unknown, Unknown, Success, Failed]);
  });
});

describe("the dot indicator", () => {
  it("a new task shows it while the panel is closed, not while it is open", () => {
    expect(addTask(state([], { show: false }), task()).state.showDot).toBe(true);
    expect(addTask(state([], { show: true }), task()).state.showDot).toBe(false);
  });

  it("new output shows it while the panel is closed, not while it is open", () => {
    const t = task(Executing);
    expect(receive(state([t], { show: false }), t.uuid, "line").state.showDot).toBe(true);
    expect(receive(state([t], { show: true }), t.uuid, "line").state.showDot).toBe(false);
    // Status lines are not output.
    expect(receive(state([t], { show: false }), t.uuid, "command-link-success").state.showDot).toBe(false);
  });

  it("opening the panel clears it; closing keeps it off", () => {
    const opened = setShow(state([], { show: false, showDot: true }), true);
    expect(opened).toMatchObject({ show: true, showDot: false });
    expect(setShow(opened, false)).toMatchObject({ show: false, showDot: false });
  });
});

it("folds and unfolds a task's output", () => {
  const s = state([task(Success)]);
  const id = s.taskList[0]!.uuid;
  expect(toggleMessage(s, id).taskList[0]!.showMessage).toBe(true);
  expect(toggleMessage(toggleMessage(s, id), id).taskList[0]!.showMessage).toBe(false);
});

describe("ANSI colours in output", () => {
  it("turns SGR codes into styled pieces and never shows the escapes", () => {
    expect(parseAnsi("\u001b[32mgreen\u001b[39m plain \u001b[1;31mbold red\u001b[0m")).toEqual([
      { text: "green", style: { color: "#4ade80" } },
      { text: " plain ", style: {} },
      { text: "bold red", style: { bold: true, color: "#f87171" } },
    ]);
  });

  it("reads bright, 256 and true colours, backgrounds and resets", () => {
    expect(parseAnsi("\u001b[94ma\u001b[38;5;196mb\u001b[38;2;1;2;3mc\u001b[42md\u001b[49;22;4me")).toEqual([
      { text: "a", style: { color: "#93c5fd" } },
      { text: "b", style: { color: "rgb(255, 0, 0)" } },
      { text: "c", style: { color: "rgb(1, 2, 3)" } },
      { text: "d", style: { color: "rgb(1, 2, 3)", background: "#4ade80" } },
      { text: "e", style: { color: "rgb(1, 2, 3)", underline: true } },
    ]);
  });

  it("drops other control sequences and keeps what a carriage return left", () => {
    expect(parseAnsi("\u001b[2K\u001b[1Gprogress 10%\rprogress 100%")).toEqual([{ text: "progress 100%", style: {} }]);
    expect(parseAnsi("\u001b]0;title\u0007text\u001b[?25l")).toEqual([{ text: "text", style: {} }]);
    expect(parseAnsi("plain")).toEqual([{ text: "plain", style: {} }]);
    expect(parseAnsi("")).toEqual([]);
  });
});

describe("server-sent events", () => {
  it("splits complete events and keeps a partial one for the next chunk", () => {
    expect(sseEvents('data: {"a":1}\n\n: ping\n\ndata: {"b"')).toEqual({ events: ['{"a":1}'], rest: 'data: {"b"' });
    expect(sseEvents('data: {"b":2}\r\n\r\n')).toEqual({ events: ['{"b":2}'], rest: "" });
  });
});
