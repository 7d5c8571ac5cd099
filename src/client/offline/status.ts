import { useSyncExternalStore } from "react";
import type { MemberDb } from "./db.ts";
import type { SyncEngineStatus } from "./sync.ts";

/**
 * What screens read of the offline module without loading it: the signed-in member's database
 * and the sync status. No Dexie here (type imports only), so the header's badge and a visitor's
 * first screen do not pull the offline module (Dexie, the sync engine, the op schemas) into the
 * first-load bundle; offline/index.ts publishes into this store.
 */
interface Snapshot {
  db: MemberDb | null;
  status: SyncEngineStatus;
}

export const IDLE: SyncEngineStatus = { state: "idle", pending: 0, rejected: 0 };

let snapshot: Snapshot = { db: null, status: IDLE };
const listeners = new Set<() => void>();

export function publish(next: Partial<Snapshot>): void {
  snapshot = { ...snapshot, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The signed-in member's database, or null before `startOffline` / after `stopOffline`. */
export function getOfflineDb(): MemberDb | null {
  return snapshot.db;
}

/** The sync status for screens: state and the "answers waiting to sync" count. */
export function useSyncStatus(): SyncEngineStatus {
  return useSyncExternalStore(
    subscribe,
    () => snapshot.status,
    () => IDLE,
  );
}

/** The signed-in member's database (null when none), re-rendering when it changes. */
export function useOfflineDb(): MemberDb | null {
  return useSyncExternalStore(
    subscribe,
    () => snapshot.db,
    () => null,
  );
}

/*
 * Reviews due now: counted on the device by MemberSync (signed-in members only, with
 * the offline module) and read here by the header's badge, which must not load that module.
 */
let dueReviews = 0;
const dueListeners = new Set<() => void>();

export function publishDueReviews(count: number): void {
  if (count === dueReviews) return;
  dueReviews = count;
  for (const listener of dueListeners) listener();
}

/** How many reviews are due now (0 when nobody is signed in). */
export function useDueReviews(): number {
  return useSyncExternalStore(
    (listener) => {
      dueListeners.add(listener);
      return () => dueListeners.delete(listener);
    },
    () => dueReviews,
    () => 0,
  );
}
