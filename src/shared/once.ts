/**
 * `load` run once, its promise shared by every caller; when it fails (a lazy chunk that could not
 * be downloaded: offline before the service worker had it, or a deploy replaced it) the next call
 * runs it again instead of answering the same failure forever.
 */
export function onceUntilFailed<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
}
