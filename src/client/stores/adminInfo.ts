import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import { STORE_ADMIN_INFO } from "./keys.ts";

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

export type TokenType = "auth" | "refresh";

interface AdminInfoStore extends AdminInfo {
  dataFill(info: Partial<AdminInfo>): void;
  setToken(token: string, type: TokenType): void;
  getToken(type?: TokenType): string;
  removeToken(): void;
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
      setToken: (token, type) => set(type === "auth" ? { token } : { refresh_token: token }),
      getToken: (type = "auth") => (type === "auth" ? get().token : get().refresh_token),
      removeToken: () => set({ token: "", refresh_token: "" }),
      clear: () => set(empty),
    }),
    { name: STORE_ADMIN_INFO, storage: createJSONStorage(() => localStorage) },
  ),
);
