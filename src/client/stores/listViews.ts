import { create } from "zustand";
import { persist } from "zustand/middleware";
import { STORE_LIST_VIEWS } from "./keys.ts";

/** What an admin chose on a list: the columns shown or hidden, their order and widths (by field), the page size. */
export interface ListView {
  columns?: Record<string, boolean>;
  order?: string[];
  widths?: Record<string, number>;
  limit?: number;
}

interface ListViewsStore {
  /** By `${adminId}:${screen path}`: each admin of this browser keeps their own. */
  views: Record<string, ListView>;
  save(key: string, view: ListView): void;
  /** The columns back to the screen's own (shown, order, widths); the page size stays. */
  resetColumns(key: string): void;
}

/**
 * Back-office list settings kept between visits (this browser), per admin and screen: a list
 * opens with the columns (shown, order, widths) and page size it was left with. A column a newer
 * version dropped is ignored; a new one shows as its screen declares, after the ordered ones.
 */
export const useListViews = create<ListViewsStore>()(
  persist(
    (set) => ({
      views: {},
      save: (key, view) => set((s) => ({ views: { ...s.views, [key]: { ...s.views[key], ...view } } })),
      resetColumns: (key) =>
        set((s) => {
          const limit = s.views[key]?.limit;
          const { [key]: _gone, ...others } = s.views;
          return { views: limit === undefined ? others : { ...others, [key]: { limit } } };
        }),
    }),
    { name: STORE_LIST_VIEWS, version: 0 },
  ),
);

export const listViewKey = (adminId: number, path: string): string => `${adminId}:${path}`;
