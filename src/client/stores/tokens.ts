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

interface SessionStoreApi {
  getState(): TokenFields & { id: number };
  setState(partial: Partial<TokenFields>): void;
}

/**
 * Tabs of one browser share a session: when another tab stores new tokens for the same account
 * (a refresh rotates the refresh token), this tab takes them, so it never sends the exchanged
 * refresh token (a reuse the server treats as theft). A logout or another account in the
 * other tab is left alone here: the server answers this tab when it asks.
 */
export function shareTokensAcrossTabs(key: string, store: SessionStoreApi): void {
  if (typeof window === "undefined") return;
  window.addEventListener("storage", (event) => {
    if (event.key !== key || !event.newValue) return;
    let state: Partial<TokenFields & { id: number }> | undefined;
    try {
      state = (JSON.parse(event.newValue) as { state?: Partial<TokenFields & { id: number }> }).state;
    } catch {
      return;
    }
    const current = store.getState();
    if (!state || !current.id || state.id !== current.id || !state.token) return;
    if (state.token === current.token && state.refresh_token === current.refresh_token) return;
    store.setState({ token: state.token, refresh_token: state.refresh_token ?? "" });
  });
}
