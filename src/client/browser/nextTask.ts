/**
 * Resolves in the next task: what the caller does after it is not part of the current task.
 * Start-up work is cut at such points so no one task runs long on a phone (Total Blocking Time
 * counts what each task spends over 50 ms).
 */
export function nextTask(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0));
}
