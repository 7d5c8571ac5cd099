/**
 * Runs `task` once the page is idle (requestIdleCallback; a second later where the browser has
 * none, as Safari), at most `timeout` ms later. Returns a cancel.
 */
export function whenIdle(task: () => void, timeout = 3_000): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(task, { timeout });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(task, 1_000);
  return () => window.clearTimeout(handle);
}
