import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import { shareTokensAcrossTabs, tokenActions, type TokenActions, type TokenFields } from "./tokens.ts";

/** The account a session store keeps: its id, its tokens and the rest of its info. */
export type SessionInfo = TokenFields & { id: number };

/** What both session stores (admin and member) do: fill the info at login, clear it at logout, keep the tokens. */
export type SessionStore<Info extends SessionInfo> = Info &
  TokenActions & {
    dataFill(info: Partial<Info>): void;
    clear(): void;
  };

/**
 * A session store kept in localStorage under `key`, starting from `empty`, whose tokens follow
 * the other tabs' (shareTokensAcrossTabs); `more` adds what only one side's store does.
 */
export function createSessionStore<Info extends SessionInfo, More extends object = object>(key: string, empty: Info, more?: (get: () => Info) => More) {
  type Store = SessionStore<Info> & More;
  // The store's own fields are Info's: a change to them is a change to the store.
  const patchOf = (partial: Partial<Info> | Partial<TokenFields>) => partial as unknown as Partial<Store>;
  const store = create<Store>()(
    persist(
      (set, get) =>
        ({
          ...empty,
          dataFill: (info: Partial<Info>) => set(patchOf(info)),
          ...tokenActions((partial) => set(patchOf(partial)), get),
          ...more?.(get),
          clear: () => set(patchOf(empty)),
        }) as Store,
      { name: key, storage: createJSONStorage(() => localStorage) },
    ),
  );
  shareTokensAcrossTabs(key, { getState: store.getState, setState: (partial) => store.setState(patchOf(partial)) });
  return store;
}
