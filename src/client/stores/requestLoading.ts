import { create } from "zustand";

/**
 * The request loading overlay (SPEC §9: off unless a request asks for it). A counter: the first
 * request with loading on opens the one overlay, the last one to finish (success, failure or
 * cancel) closes it.
 */
interface LoadingStore {
  count: number;
  open(): void;
  close(): void;
}

export const useRequestLoading = create<LoadingStore>()((set) => ({
  count: 0,
  open: () => set((s) => ({ count: s.count + 1 })),
  close: () => set((s) => ({ count: Math.max(0, s.count - 1) })),
}));
