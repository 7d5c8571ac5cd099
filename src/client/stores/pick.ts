import type { StoreApi, UseBoundStore } from "zustand";
import { useShallow } from "zustand/react/shallow";

/**
 * Some fields of a store, read with one subscription: the component renders again only when one
 * of them changes (compared one by one, useShallow).
 */
export function usePick<S, K extends keyof S>(useStore: UseBoundStore<StoreApi<S>>, ...keys: K[]): Pick<S, K> {
  return useStore(
    useShallow((state) => {
      const picked = {} as Pick<S, K>;
      for (const key of keys) picked[key] = state[key];
      return picked;
    }),
  );
}
