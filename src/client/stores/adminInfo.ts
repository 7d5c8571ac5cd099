import { STORE_ADMIN_INFO } from "./keys.ts";
import { createSessionStore } from "./session.ts";

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

export const useAdminInfo = createSessionStore(STORE_ADMIN_INFO, empty);
