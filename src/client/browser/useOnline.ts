import { listen } from "./listen.ts";
import { useSyncExternalStore } from "react";

function subscribe(onChange: () => void): () => void {
  return listen([window, "online", onChange], [window, "offline", onChange]);
}

/** The browser's view of connectivity, live. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}
