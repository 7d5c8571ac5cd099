import {
  TaskStatus,
  TERMINAL_EXEC_COMPLETED,
  TERMINAL_EXEC_ERROR,
  TERMINAL_EXEC_SUCCESS,
  TERMINAL_LINK_SUCCESS,
} from "../../../shared/terminal.ts";

/**
 * The terminal's task queue (SPEC §4) as a pure state machine: each transition takes the state
 * and returns the next state with the effects the caller carries out (open or close a stream,
 * call a task's callback, show the "blocked" error). No React, no timers, no network.
 */

export interface TerminalTask {
  uuid: string;
  /** Unix seconds. */
  createTime: number;
  status: TaskStatus;
  command: string;
  /** Output lines. */
  message: string[];
  /** The output is unfolded. */
  showMessage: boolean;
  /** A failure stops the tasks after it. */
  blockOnFailure: boolean;
  extend: string;
}

export interface QueueState {
  /** The panel is open. */
  show: boolean;
  /** Something new happened while the panel was closed. */
  showDot: boolean;
  taskList: TerminalTask[];
  /** 1: adding a task first clears the successful ones. */
  automaticCleanupTask: 0 | 1;
}

export type QueueEffect =
  | { type: "open"; task: TerminalTask }
  | { type: "close"; uuid: string }
  | { type: "completed"; uuid: string; status: TaskStatus }
  | { type: "blocked" };

export interface Transition {
  state: QueueState;
  effects: QueueEffect[];
}

const isRunning = (task: TerminalTask) => task.status === TaskStatus.Connecting || task.status === TaskStatus.Executing;
const isFailed = (task: TerminalTask) => task.status === TaskStatus.Failed || task.status === TaskStatus.Unknown;

export function createTask(
  command: string,
  options: { uuid: string; now: number; blockOnFailure?: boolean; extend?: string },
): TerminalTask {
  return {
    uuid: options.uuid,
    createTime: options.now,
    status: TaskStatus.Waiting,
    command,
    message: [],
    showMessage: false,
    blockOnFailure: options.blockOnFailure ?? true,
    extend: options.extend ?? "",
  };
}

/**
 * The index of the task the queue starts next: the first Waiting one, unless an earlier task is
 * Connecting or Executing, or Failed/Unknown with blockOnFailure (Failed/Unknown tasks without
 * it, and successes, are passed over). null: nothing to start.
 */
export function nextTaskIndex(tasks: readonly TerminalTask[]): number | null {
  for (const [i, task] of tasks.entries()) {
    if (task.status === TaskStatus.Waiting) return i;
    if (isRunning(task)) return null;
    if (isFailed(task) && task.blockOnFailure) return null;
  }
  return null;
}

/** A Failed/Unknown task with blockOnFailure stands before a Waiting task: that one never starts. */
export function isBlocked(tasks: readonly TerminalTask[]): boolean {
  const blocker = tasks.findIndex((t) => isFailed(t) && t.blockOnFailure);
  return blocker !== -1 && tasks.slice(blocker + 1).some((t) => t.status === TaskStatus.Waiting);
}

/** A task's status; a Failed/Unknown task that blocks shows its output. */
function withStatus(task: TerminalTask, status: TaskStatus): TerminalTask {
  const showMessage = (status === TaskStatus.Failed || status === TaskStatus.Unknown) && task.blockOnFailure ? true : task.showMessage;
  return { ...task, status, showMessage };
}

function update(state: QueueState, uuid: string, change: (task: TerminalTask) => TerminalTask): QueueState {
  return { ...state, taskList: state.taskList.map((t) => (t.uuid === uuid ? change(t) : t)) };
}

/** Starts the next task, if any: it becomes Connecting and its stream opens. */
export function startNext(state: QueueState): Transition {
  const index = nextTaskIndex(state.taskList);
  if (index === null) return { state, effects: [] };
  const task = withStatus(state.taskList[index]!, TaskStatus.Connecting);
  return { state: { ...state, taskList: state.taskList.with(index, task) }, effects: [{ type: "open", task }] };
}

/** Removes every successful task. */
export function clearSuccessTasks(state: QueueState): QueueState {
  return { ...state, taskList: state.taskList.filter((t) => t.status !== TaskStatus.Success) };
}

/**
 * Adds a task (Waiting) and runs the queue. With automatic clean-up the successful tasks go
 * first. While the panel is closed the dot shows, and a task that will never start because a
 * failed one blocks it is reported.
 */
export function addTask(state: QueueState, task: TerminalTask): Transition {
  let next: QueueState = { ...state, taskList: [...state.taskList, task] };
  if (state.automaticCleanupTask === 1) next = clearSuccessTasks(next);
  if (!state.show) next = { ...next, showDot: true };
  const blocked: QueueEffect[] = !state.show && isBlocked(next.taskList) ? [{ type: "blocked" }] : [];
  const started = startNext(next);
  return { state: started.state, effects: [...blocked, ...started.effects] };
}

/** One event of a task's stream (SPEC §4). Events of tasks no longer listed are ignored. */
export function receive(state: QueueState, uuid: string, data: string): Transition {
  const task = state.taskList.find((t) => t.uuid === uuid);
  if (!task) return { state, effects: [] };
  switch (data) {
    case TERMINAL_LINK_SUCCESS:
      return { state: update(state, uuid, (t) => withStatus(t, TaskStatus.Executing)), effects: [] };
    case TERMINAL_EXEC_SUCCESS:
      return { state: update(state, uuid, (t) => withStatus(t, TaskStatus.Success)), effects: [] };
    case TERMINAL_EXEC_ERROR:
      return finish(update(state, uuid, (t) => withStatus(t, TaskStatus.Failed)), uuid);
    case TERMINAL_EXEC_COMPLETED:
      return finish(update(state, uuid, (t) => (t.status === TaskStatus.Success ? t : withStatus(t, TaskStatus.Failed))), uuid);
    default: {
      const next = update(state, uuid, (t) => ({ ...t, message: [...t.message, data] }));
      return { state: state.show ? next : { ...next, showDot: true }, effects: [] };
    }
  }
}

/** The stream closes, the callback hears the outcome, the queue goes on. */
function finish(state: QueueState, uuid: string): Transition {
  const status = state.taskList.find((t) => t.uuid === uuid)!.status;
  const started = startNext(state);
  return { state: started.state, effects: [{ type: "close", uuid }, { type: "completed", uuid, status }, ...started.effects] };
}

/**
 * The stream failed (network, a refusal, or it ended without its completion line): the task is
 * Failed (a success already reported stays), with the reason as its last line.
 */
export function streamFailed(state: QueueState, uuid: string, reason?: string): Transition {
  const task = state.taskList.find((t) => t.uuid === uuid);
  if (!task || !isRunning(task)) return { state, effects: [] };
  const next = update(state, uuid, (t) => {
    const message = reason ? [...t.message, reason] : t.message;
    return t.status === TaskStatus.Success ? { ...t, message } : withStatus({ ...t, message }, TaskStatus.Failed);
  });
  return finish(state.show || !reason ? next : { ...next, showDot: true }, uuid);
}

/** Retry: the output is cleared and the task waits again (then the queue runs). */
export function retryTask(state: QueueState, uuid: string): Transition {
  const task = state.taskList.find((t) => t.uuid === uuid);
  if (!task || isRunning(task)) return { state, effects: [] };
  return startNext(update(state, uuid, (t) => ({ ...withStatus(t, TaskStatus.Waiting), message: [] })));
}

/** Whether a task may be deleted: not while it is Connecting or Executing. */
export function canDelete(task: TerminalTask): boolean {
  return !isRunning(task);
}

/** Deletes a task (refused, state unchanged, while it is Connecting or Executing); the queue runs on. */
export function deleteTask(state: QueueState, uuid: string): Transition {
  const task = state.taskList.find((t) => t.uuid === uuid);
  if (!task || !canDelete(task)) return { state, effects: [] };
  return startNext({ ...state, taskList: state.taskList.filter((t) => t.uuid !== uuid) });
}

/** Start-up: a task that was Connecting or Executing when the page went away is Unknown. */
export function restore(state: QueueState): QueueState {
  return { ...state, taskList: state.taskList.map((t) => (isRunning(t) ? withStatus(t, TaskStatus.Unknown) : t)) };
}

/** Opens or closes the panel; opening clears the dot. */
export function setShow(state: QueueState, show: boolean): QueueState {
  return { ...state, show, showDot: show ? false : state.showDot };
}

/** Folds or unfolds a task's output. */
export function toggleMessage(state: QueueState, uuid: string): QueueState {
  return update(state, uuid, (t) => ({ ...t, showMessage: !t.showMessage }));
}
