import { create } from "zustand";
import { persist } from "zustand/middleware";
import { STORE_LIST_VIEWS } from "./keys.ts";

/** What an admin chose on a list: the columns shown or hidden (by field) and the page size. */
export interface ListView {
  columns?: Record<string, boolean>;
  limit?: number;
}

interface ListViewsStore {
  /** By `${adminId}:${screen path}`: each admin of this browser keeps their own. */
  views: Record<string, ListView>;
  save(key: string, view: ListView): void;
}

/**
 * Back-office list settings kept between visits (this browser), per admin and screen: a list
 * opens with the columns and page size it was left with. A column a newer version dropped is
 * ignored; a new one shows as its screen declares.
 */
export const useListViews = create<ListViewsStore>()(
  persist(
    (set) => ({
      views: {},
      save: (key, view) => set((s) => ({ views: { ...s.views, [key]: { ...s.views[key], ...view } } })),
    }),
    { name: STORE_LIST_VIEWS, version: 0 },
  ),
);

export const listViewKey = (adminId: number, path: string): string => `${adminId}:${path}`;
