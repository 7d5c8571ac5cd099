import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { toast } from "../../ui/toast.ts";
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import { DEFAULT_PACKAGE_MANAGER, DEFAULT_TERMINAL_PORT, PACKAGE_MANAGERS, type PackageManager, type TaskStatus } from "../../../shared/terminal.ts";
import { uuid } from "../../../shared/uuid.ts";
import { STORE_TERMINAL } from "../../stores/keys.ts";
import * as queue from "./queue.ts";
import { openTerminalStream } from "./stream.ts";

/**
 * The terminal settings and task queue (SPEC §3, §4). Only showDot, taskList and
 * automaticCleanupTask persist in browser storage; the package manager and port come from the
 * server (the start data's `terminal`), the panel and dialogs start closed. The queue's rules
 * are the pure transitions of queue.ts; this store carries out their effects.
 */

export type TaskCallback = (status: TaskStatus) => void;

interface TerminalStore extends queue.QueueState {
  packageManager: PackageManager;
  showPackageManagerDialog: boolean;
  showConfig: boolean;
  port: number;
  /** Opens or closes the panel (toggles without an argument); opening clears the dot. */
  toggle(show?: boolean): void;
  addTask(command: string, blockOnFailure?: boolean, extend?: string, callback?: TaskCallback): string;
  /** A package-manager command: `install` -> `install.<packageManager>`. */
  addTaskPM(group: string, blockOnFailure?: boolean, extend?: string, callback?: TaskCallback): string;
  retryTask(uuid: string): void;
  deleteTask(uuid: string): void;
  clearSuccessTask(): void;
  toggleMessage(uuid: string): void;
  /** Opening either dialog hides the panel. */
  togglePackageManagerDialog(open: boolean): void;
  toggleConfigDialog(open: boolean): void;
  setAutomaticCleanupTask(value: 0 | 1): void;
  /** The server's terminal settings (start data or a saved change). */
  setServerConfig(config: { packageManager?: string; port?: number | string }): void;
}

const controllers = new Map<string, AbortController>();
const callbacks = new Map<string, TaskCallback>();

const queueOf = (s: TerminalStore): queue.QueueState => ({
  show: s.show,
  showDot: s.showDot,
  taskList: s.taskList,
  automaticCleanupTask: s.automaticCleanupTask,
});

export const useTerminal = create<TerminalStore>()(
  persist(
    (set, get) => {
      /** Applies a transition of the queue: the new state, then its effects in order. */
      const apply = (transition: queue.Transition) => {
        set(transition.state);
        for (const effect of transition.effects) {
          if (effect.type === "open") start(effect.task);
          else if (effect.type === "close") controllers.get(effect.uuid)?.abort();
          else if (effect.type === "completed") {
            const callback = callbacks.get(effect.uuid);
            callbacks.delete(effect.uuid);
            callback?.(effect.status);
          } else toast.error(i18n._(msg`Newly added tasks will never start because they are blocked by failed tasks`));
        }
      };
      const start = (task: queue.TerminalTask) => {
        const controller = new AbortController();
        controllers.set(task.uuid, controller);
        void openTerminalStream(task, controller.signal, (data) => apply(queue.receive(queueOf(get()), task.uuid, data))).then((end) => {
          controllers.delete(task.uuid);
          // A stream that ended before its completion line failed (a finished task is left alone).
          apply(queue.streamFailed(queueOf(get()), task.uuid, end.ok ? i18n._(msg`The connection was closed before the command finished`) : end.reason));
        });
      };

      return {
        show: false,
        showDot: false,
        taskList: [],
        automaticCleanupTask: 1,
        packageManager: DEFAULT_PACKAGE_MANAGER,
        showPackageManagerDialog: false,
        showConfig: false,
        port: DEFAULT_TERMINAL_PORT,
        toggle: (show) => set(queue.setShow(queueOf(get()), show ?? !get().show)),
        addTask: (command, blockOnFailure = true, extend = "", callback) => {
          const task = queue.createTask(command, { uuid: uuid(), now: Math.floor(Date.now() / 1000), blockOnFailure, extend });
          if (callback) callbacks.set(task.uuid, callback);
          apply(queue.addTask(queueOf(get()), task));
          return task.uuid;
        },
        addTaskPM: (group, blockOnFailure, extend, callback) => get().addTask(`${group}.${get().packageManager}`, blockOnFailure, extend, callback),
        retryTask: (id) => apply(queue.retryTask(queueOf(get()), id)),
        deleteTask: (id) => apply(queue.deleteTask(queueOf(get()), id)),
        clearSuccessTask: () => set(queue.clearSuccessTasks(queueOf(get()))),
        toggleMessage: (id) => set(queue.toggleMessage(queueOf(get()), id)),
        togglePackageManagerDialog: (open) => {
          if (open) get().toggle(false);
          set({ showPackageManagerDialog: open });
        },
        toggleConfigDialog: (open) => {
          if (open) get().toggle(false);
          set({ showConfig: open });
        },
        setAutomaticCleanupTask: (value) => set({ automaticCleanupTask: value }),
        setServerConfig: ({ packageManager, port }) => {
          if (packageManager !== undefined && (PACKAGE_MANAGERS as readonly string[]).includes(packageManager)) set({ packageManager: packageManager as PackageManager });
          const n = Number(port);
          if (port !== undefined && Number.isInteger(n) && n >= 1 && n <= 65535) set({ port: n });
        },
      };
    },
    {
      name: STORE_TERMINAL,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ showDot: s.showDot, taskList: s.taskList, automaticCleanupTask: s.automaticCleanupTask }),
      // On start a task that was connecting or executing is Unknown: its page is gone.
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<queue.QueueState>;
        const restored = queue.restore({
          ...queueOf(current),
          showDot: p.showDot === true,
          taskList: Array.isArray(p.taskList) ? p.taskList : [],
          automaticCleanupTask: p.automaticCleanupTask === 0 ? 0 : 1,
        });
        return { ...current, ...restored };
      },
    },
  ),
);
