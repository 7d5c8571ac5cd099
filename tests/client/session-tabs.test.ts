import { beforeEach, describe, expect, it } from "vitest";
import { useAdminInfo } from "../../src/client/stores/adminInfo.ts";
import { STORE_ADMIN_INFO, STORE_USER_INFO } from "../../src/client/stores/keys.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";

/**
 * Refresh tokens rotate: when one tab refreshes, the other tabs of the browser must
 * take the new tokens, or their next refresh would send the exchanged one (taken as theft).
 */

/** What the browser fires in the other tabs when one tab writes a persisted store. */
function otherTabWrites(key: string, state: object | string) {
  const newValue = typeof state === "string" ? state : JSON.stringify({ state, version: 0 });
  window.dispatchEvent(new StorageEvent("storage", { key, newValue, oldValue: null }));
}

beforeEach(() => {
  useUserInfo.setState({ id: 7, username: "mia", token: "access-1", refresh_token: "refresh-1" });
  useAdminInfo.setState({ id: 3, username: "boss", token: "admin-access-1", refresh_token: "admin-refresh-1" });
});

describe("tokens shared across tabs", () => {
  it("takes the member tokens another tab stored for the same member", () => {
    otherTabWrites(STORE_USER_INFO, { id: 7, username: "mia", token: "access-2", refresh_token: "refresh-2" });
    expect(useUserInfo.getState()).toMatchObject({ token: "access-2", refresh_token: "refresh-2", username: "mia" });
    expect(useAdminInfo.getState().token).toBe("admin-access-1");
  });

  it("takes the admin tokens another tab stored for the same admin", () => {
    otherTabWrites(STORE_ADMIN_INFO, { id: 3, token: "admin-access-2", refresh_token: "admin-refresh-2" });
    expect(useAdminInfo.getState()).toMatchObject({ token: "admin-access-2", refresh_token: "admin-refresh-2" });
    expect(useUserInfo.getState().token).toBe("access-1");
  });

  it("ignores another account, a logout, other keys and junk", () => {
    otherTabWrites(STORE_USER_INFO, { id: 8, token: "someone-else", refresh_token: "x" });
    otherTabWrites(STORE_USER_INFO, { id: 0, token: "", refresh_token: "" });
    otherTabWrites(STORE_USER_INFO, { id: 7, token: "", refresh_token: "" });
    otherTabWrites("storeConfig", { id: 7, token: "nope", refresh_token: "nope" });
    otherTabWrites(STORE_USER_INFO, "{not json");
    expect(useUserInfo.getState()).toMatchObject({ token: "access-1", refresh_token: "refresh-1" });
  });
});
