import { beforeEach, describe, expect, it, vi } from "vitest";
import type * as ApiModule from "../../src/client/api/index.ts";
import { request } from "../../src/client/api/index.ts";
import { loadAdminEarly, takeAdminLoad } from "../../src/client/admin/session.ts";
import { landingLoggedIn, prefetchLanding, setLanding } from "../../src/client/routing/landing.ts";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

const index = {
  code: 1,
  msg: "",
  data: {
    adminInfo: { id: 1, username: "admin" },
    siteConfig: {},
    menus: [{ id: 1, pid: 0, type: "menu", title: "Dashboard", name: "dashboard", path: "dashboard", icon: "", menu_type: "tab", url: "", component: "dashboard", keepalive: 0, extend: "none", children: [] }],
  },
};

beforeEach(() => {
  vi.mocked(request).mockReset().mockResolvedValue(index as never);
  useNavTabs.getState().reset();
});

describe("the admin's data asked for at login", () => {
  it("is the load the loading screen takes, once; the next load asks again", async () => {
    loadAdminEarly();
    expect(request).toHaveBeenCalledTimes(1);
    await expect(takeAdminLoad()).resolves.toBe("/admin/dashboard");
    expect(request).toHaveBeenCalledTimes(1);
    expect(useNavTabs.getState().loaded).toBe(true);
    await takeAdminLoad();
    expect(request).toHaveBeenCalledTimes(2);
  });

  it("a failed early load is the loading screen's failure to meet, not an unhandled rejection", async () => {
    vi.mocked(request).mockRejectedValueOnce(new Error("offline"));
    loadAdminEarly();
    await expect(takeAdminLoad()).rejects.toThrow("offline");
    await expect(takeAdminLoad()).resolves.toBe("/admin/dashboard");
  });
});

describe("an area's landing", () => {
  it("downloads and starts what the router registered, and a failure is left for the navigation", async () => {
    const prefetch = vi.fn().mockRejectedValue(new Error("chunk failed"));
    const loggedIn = vi.fn().mockRejectedValue(new Error("offline"));
    setLanding("admin", { prefetch, loggedIn });
    prefetchLanding("admin");
    expect(prefetch).toHaveBeenCalledTimes(1);
    expect(loggedIn).not.toHaveBeenCalled();
    // A failed start is left for the landing: the login page's await goes on to navigate.
    await expect(landingLoggedIn("admin")).resolves.toBeUndefined();
    expect(loggedIn).toHaveBeenCalledTimes(1);
    prefetchLanding("user");
    await expect(landingLoggedIn("user")).resolves.toBeUndefined();
    expect(prefetch).toHaveBeenCalledTimes(1);
    expect(loggedIn).toHaveBeenCalledTimes(1);
  });

  it("answers the login page once the landing's requests are under way, not before", async () => {
    let started!: () => void;
    setLanding("admin", { prefetch: vi.fn(), loggedIn: () => new Promise<void>((resolve) => (started = resolve)) });
    let answered = false;
    const waiting = landingLoggedIn("admin").then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    started();
    await waiting;
    expect(answered).toBe(true);
  });
});
