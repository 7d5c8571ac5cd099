import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import { STORE_ADMIN_INFO } from "./keys.ts";
import { shareTokensAcrossTabs, tokenActions, type TokenActions } from "./tokens.ts";

/** SPEC §3 admin info. */
export interface AdminInfo {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  last_login_time: string | number | null;
  token: string;
  refresh_token: string;
  super: boolean;
  is_company: boolean;
}

interface AdminInfoStore extends AdminInfo, TokenActions {
  dataFill(info: Partial<AdminInfo>): void;
  clear(): void;
}

const empty: AdminInfo = {
  id: 0,
  username: "",
  nickname: "",
  avatar: "",
  last_login_time: null,
  token: "",
  refresh_token: "",
  super: false,
  is_company: false,
};

export const useAdminInfo = create<AdminInfoStore>()(
  persist(
    (set, get) => ({
      ...empty,
      dataFill: (info) => set(info),
      ...tokenActions(set, get),
      clear: () => set(empty),
    }),
    { name: STORE_ADMIN_INFO, storage: createJSONStorage(() => localStorage) },
  ),
);

shareTokensAcrossTabs(STORE_ADMIN_INFO, useAdminInfo);
