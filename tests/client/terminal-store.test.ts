import { describe, expect, it } from "vitest";
import { useTerminal } from "../../src/client/admin/terminal/store.ts";
import { STORE_TERMINAL } from "../../src/client/stores/keys.ts";
import { TaskStatus } from "../../src/shared/terminal.ts";

/** The terminal settings of SPEC §3: defaults, and only showDot, taskList, automaticCleanupTask in browser storage. */

describe("terminal settings", () => {
  it("start with the defaults of SPEC §3 and §9", () => {
    const s = useTerminal.getState();
    expect(s).toMatchObject({
      show: false,
      showDot: false,
      taskList: [],
      packageManager: "pnpm",
      showPackageManagerDialog: false,
      showConfig: false,
      automaticCleanupTask: 1,
      port: 8000,
    });
  });

  it("persist only showDot, taskList and automaticCleanupTask", () => {
    useTerminal.setState({ show: true, showDot: true, automaticCleanupTask: 0, showConfig: true, packageManager: "yarn", port: 9000 });
    const stored = JSON.parse(localStorage.getItem(STORE_TERMINAL)!) as { state: Record<string, unknown> };
    expect(Object.keys(stored.state).sort()).toEqual(["automaticCleanupTask", "showDot", "taskList"]);
    expect(stored.state).toMatchObject({ showDot: true, automaticCleanupTask: 0 });
  });

  it("on rehydration Connecting and Executing tasks become Unknown", async () => {
    const task = (uuid: string, status: number) => ({ uuid, createTime: 1, status, command: "version.node", message: [], showMessage: false, blockOnFailure: true, extend: "" });
    localStorage.setItem(
      STORE_TERMINAL,
      JSON.stringify({ state: { showDot: true, taskList: [task("a", TaskStatus.Connecting), task("b", TaskStatus.Executing), task("c", TaskStatus.Success)], automaticCleanupTask: 1 }, version: 0 }),
    );
    await useTerminal.persist.rehydrate();
    expect(useTerminal.getState().taskList.map((t) => t.status)).toEqual([TaskStatus.Unknown, TaskStatus.Unknown, TaskStatus.Success]);
  });

  it("opening either dialog hides the panel; opening the panel clears the dot", () => {
    useTerminal.setState({ show: false, showDot: true });
    useTerminal.getState().toggle(true);
    expect(useTerminal.getState()).toMatchObject({ show: true, showDot: false });
    useTerminal.getState().toggleConfigDialog(true);
    expect(useTerminal.getState()).toMatchObject({ show: false, showConfig: true });
    useTerminal.getState().toggle(true);
    useTerminal.getState().togglePackageManagerDialog(true);
    expect(useTerminal.getState()).toMatchObject({ show: false, showPackageManagerDialog: true });
  });

  it("takes the server's package manager and port, ignoring values it does not know", () => {
    useTerminal.getState().setServerConfig({ packageManager: "npm", port: "8123" });
    useTerminal.getState().setServerConfig({ packageManager: "sh", port: "x" });
    expect(useTerminal.getState()).toMatchObject({ packageManager: "npm", port: 8123 });
  });
});
