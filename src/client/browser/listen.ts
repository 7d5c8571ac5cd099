/** One listener: where, for which event, what runs. */
export type Listener = readonly [target: EventTarget, type: string, listener: () => void];

/**
 * Adds each listener and returns what removes them all again (an effect's cleanup, a
 * subscription's end), so adding and removing cannot drift apart.
 */
export function listen(...listeners: readonly Listener[]): () => void {
  for (const [target, type, listener] of listeners) target.addEventListener(type, listener);
  return () => {
    for (const [target, type, listener] of listeners) target.removeEventListener(type, listener);
  };
}
