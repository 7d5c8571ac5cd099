import { STORE_USER_INFO } from "./keys.ts";
import { createSessionStore } from "./session.ts";

/** SPEC §3 member info (gender 0 unknown, 1 male, 2 female; money shown with 2 decimals). */
export interface UserInfo {
  id: number;
  username: string;
  nickname: string;
  email: string;
  mobile: string;
  avatar: string;
  gender: 0 | 1 | 2;
  birthday: string;
  money: string | number;
  score: number;
  last_login_time: string | number | null;
  last_login_ip: string;
  join_time: string | number | null;
  motto: string;
  token: string;
  refresh_token: string;
}

const empty: UserInfo = {
  id: 0,
  username: "",
  nickname: "",
  email: "",
  mobile: "",
  avatar: "",
  gender: 0,
  birthday: "",
  money: 0,
  score: 0,
  last_login_time: null,
  last_login_ip: "",
  join_time: null,
  motto: "",
  token: "",
  refresh_token: "",
};

export const useUserInfo = createSessionStore(STORE_USER_INFO, empty, (get) => ({
  /** Logged in when both id and token are set (SPEC §3). */
  isLogin: () => Boolean(get().id && get().token),
}));
