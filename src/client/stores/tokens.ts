/** The access/refresh token pair both session stores (admin and member) keep. */
export type TokenType = "auth" | "refresh";

export interface TokenFields {
  token: string;
  refresh_token: string;
}

export interface TokenActions {
  setToken(token: string, type: TokenType): void;
  getToken(type?: TokenType): string;
  removeToken(): void;
}

/** The token actions of a session store, over its `token` and `refresh_token` fields. */
export function tokenActions(set: (partial: Partial<TokenFields>) => void, get: () => TokenFields): TokenActions {
  return {
    setToken: (token, type) => set(type === "auth" ? { token } : { refresh_token: token }),
    getToken: (type = "auth") => (type === "auth" ? get().token : get().refresh_token),
    removeToken: () => set({ token: "", refresh_token: "" }),
  };
}
