/**
 * Calls that arrive together answered by one statement (the DataLoader pattern): the calls made in
 * one turn of the event loop, and those made while the previous statements are still in flight,
 * are handed to `run` together once a statement is free. At a quiet moment a call waits for
 * nothing but the end of its turn (`setImmediate`); under load the calls gather while the
 * database answers, so the busier the server, the more calls share a round trip.
 *
 * `run` answers one result per item, in order; when it throws, every caller of that batch gets
 * the error (a caller that must not fail because of another's item catches it and goes its own
 * way). Nothing is kept after a batch is answered: each batch reads and writes anew.
 */
export interface BatchOptions {
  /** Statements of this kind in flight at once (1: the batches of writes never wait on each other's locks). */
  maxInFlight: number;
  /** Items in one statement at most. */
  maxBatch: number;
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export function batcher<I, O>(run: (items: I[]) => Promise<O[]>, { maxInFlight, maxBatch }: BatchOptions): (item: I) => Promise<O> {
  let queue: Waiting<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  const schedule = () => {
    if (scheduled || queue.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    setImmediate(flush);
  };

  const flush = () => {
    scheduled = false;
    while (queue.length > 0 && inFlight < maxInFlight) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      inFlight++;
      Promise.resolve()
        .then(() => run(batch.map((w) => w.item)))
        .then(
          (results) => batch.forEach((w, i) => w.resolve(results[i]!)),
          (error: unknown) => batch.forEach((w) => w.reject(error)),
        )
        .finally(() => {
          inFlight--;
          schedule();
        });
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
}

const shared = new WeakMap<object, Map<string, (item: never) => Promise<unknown>>>();

/**
 * The batcher `name` of a database handle (a test's app and the server each have their own),
 * made with `run` the first time it is asked for (`run` must depend on nothing but the handle
 * and the name).
 */
export function batcherOf<I, O>(handle: object, name: string, run: (items: I[]) => Promise<O[]>, options: BatchOptions): (item: I) => Promise<O> {
  let byName = shared.get(handle);
  if (!byName) {
    byName = new Map();
    shared.set(handle, byName);
  }
  let b = byName.get(name) as ((item: I) => Promise<O>) | undefined;
  if (!b) {
    b = batcher(run, options);
    byName.set(name, b);
  }
  return b;
}
