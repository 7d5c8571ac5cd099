/**
 * Resolves in the next task: what the caller does after it is not part of the current task.
 * Start-up work is cut at such points so no one task runs long on a phone (Total Blocking Time
 * counts what each task spends over 50 ms).
 */
export function nextTask(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
}

interface TaskScheduler {
  postTask(task: () => void, options: { priority: "user-blocking" }): Promise<void>;
}

/**
 * As nextTask, but ahead of the page's other waiting tasks (React's render slices, timers)
 * where the browser orders them (`scheduler.postTask`, "user-blocking"): for start-up work the
 * first screen waits on, still in a task of its own. Elsewhere, nextTask.
 */
export function nextUrgentTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<TaskScheduler> }).scheduler;
  return typeof scheduler?.postTask === "function" ? scheduler.postTask(() => undefined, { priority: "user-blocking" }) : nextTask();
}
