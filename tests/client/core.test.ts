import { i18n } from "@lingui/core";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/client/api/errors.ts";
import { statusMessage } from "../../src/client/api/messages.ts";
import { isServerAnswer } from "../../src/client/api/http.ts";
import { pendingKey } from "../../src/client/api/pending.ts";
import { checkAuth } from "../../src/client/routing/auth.tsx";
import { authNodes, firstRoute, menuRoutes, menuTarget, type MenuRule } from "../../src/client/routing/menus.ts";
import { loadingPath, parseLoadingTarget, targetUrl } from "../../src/client/routing/routeState.ts";
import { documentTitle } from "../../src/client/routing/titles.ts";
import { addTab, closeTab, type Tab } from "../../src/client/stores/navTabs.ts";

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

describe("retry policy", () => {
  it("tells the server's refusals (envelopes) from failed connections", () => {
    expect(isServerAnswer(ApiError.fromEnvelope({ code: 0, msg: "Please enrol in this course first", data: null }, 200))).toBe(true);
    expect(isServerAnswer(ApiError.fromEnvelope({ code: 303, msg: "", data: { type: "need login" } }, 200))).toBe(true);
    // No envelope: a failed connection or an HTTP error status; plain errors are not answers.
    expect(isServerAnswer(new ApiError({ msg: "Server exception!", network: true }))).toBe(false);
    expect(isServerAnswer(new ApiError({ msg: "Service unavailable!", status: 503 }))).toBe(false);
    expect(isServerAnswer({ code: 0, msg: "a look-alike object" })).toBe(false);
    expect(isServerAnswer(new Error("timeout"))).toBe(false);
    expect(isServerAnswer(null)).toBe(false);
  });
});

describe("HTTP status catalogue (SPEC §8)", () => {
  it.each([
    [302, "Interface redirected!"],
    [400, "Incorrect parameter!"],
    [401, "You do not have permission to operate!"],
    [403, "You do not have permission to operate!"],
    [404, "Error requesting address: /api/x"],
    [408, "Request timed out!"],
    [409, "The same data already exists in the system!"],
    [500, "Server internal error!"],
    [501, "Service not implemented!"],
    [502, "Gateway error!"],
    [503, "Service unavailable!"],
    [504, "The service is temporarily unavailable Please try again later!"],
    [505, "HTTP version is not supported!"],
    [418, "Abnormal problem, please contact the website administrator!"],
    [0, "Abnormal problem, please contact the website administrator!"],
  ])("%i -> %s", (status, text) => {
    expect(i18n._(statusMessage(status, "/api/x"))).toBe(text);
  });
});

describe("de-duplication key (SPEC §7)", () => {
  const base = { url: "/api/a", method: "get", headers: { batoken: "A", "ba-user-token": "U" }, params: { p: 1 }, data: { b: 2 } };
  it("is equal for identical requests", () => {
    expect(pendingKey(base)).toBe(pendingKey({ ...base, headers: { ...base.headers } }));
    expect(pendingKey(base)).toBe(pendingKey({ ...base, method: "GET" }));
  });
  it.each([
    ["url", { url: "/api/b" }],
    ["method", { method: "post" }],
    ["batoken", { headers: { ...base.headers, batoken: "B" } }],
    ["ba-user-token", { headers: { ...base.headers, "ba-user-token": "V" } }],
    ["params", { params: { p: 2 } }],
    ["body", { data: { b: 3 } }],
  ])("differs when the %s differs", (_part, change) => {
    expect(pendingKey({ ...base, ...change })).not.toBe(pendingKey(base));
  });
});

describe("page titles (SPEC §2)", () => {
  it.each([
    ["pagesTitle.home", "", "Home"],
    ["pagesTitle.admin", "", "Admin"],
    ["pagesTitle.login", "", "Login"],
    ["pagesTitle.notFound", "", "Page not found"],
    ["pagesTitle.noPower", "", "No access permission"],
    ["pagesTitle.loading", "", "Loading"],
    ["pagesTitle.user", "", "Member center"],
    ["pagesTitle.userLogin", "", "Member login"],
    ["pagesTitle.userLogin", "ExamHub", "Member login - ExamHub"],
    ["Dashboard", "Site", "Dashboard - Site"],
    ["pagesTitle.unknownKey", "", "pagesTitle.unknownKey"],
    [undefined, "Site", "Site"],
  ])("%s with site name %j -> %s", (title, siteName, expected) => {
    expect(documentTitle(title, i18n, siteName)).toBe(expected);
  });
});

describe("permission check (SPEC §6)", () => {
  const nodes = new Map([
    ["/admin/auth/admin", ["/admin/auth/admin/add", "/admin/auth/admin/edit"]],
    ["/", ["/del"]],
  ]);
  it.each([
    ["add", "/admin/auth/admin", true],
    ["edit", "/admin/auth/admin", true],
    ["del", "/admin/auth/admin", false],
    ["add", "/admin/other", false],
    ["del", "/", true],
  ])("string node %s on %s -> %s", (node, path, expected) => {
    expect(checkAuth(node, nodes, path)).toBe(expected);
  });
  it.each([
    [{ name: "/admin/auth/admin" }, true],
    [{ name: "/admin/auth/admin", subNodeName: "/admin/auth/admin/edit" }, true],
    [{ name: "/admin/auth/admin", subNodeName: "/admin/auth/admin/del" }, false],
    [{ name: "/admin/unknown" }, false],
    [{ name: "" }, false],
  ])("object node %j -> %s", (node, expected) => {
    expect(checkAuth(node, nodes, "/anywhere")).toBe(expected);
  });
});

const rule = (over: Partial<MenuRule>): MenuRule => ({
  id: 1,
  pid: 0,
  type: "menu",
  title: "T",
  name: "n",
  path: "n",
  icon: "",
  menu_type: "tab",
  url: "",
  component: "",
  keepalive: 0,
  extend: "none",
  children: [],
  ...over,
});

describe("menus from rules", () => {
  const tree: MenuRule[] = [
    rule({ id: 1, name: "dashboard", path: "dashboard", title: "Dashboard", component: "dashboard" }),
    rule({
      id: 2,
      type: "menu_dir",
      name: "auth",
      path: "auth",
      menu_type: null,
      children: [
        rule({
          id: 3,
          pid: 2,
          name: "auth/admin",
          path: "auth/admin",
          title: "Admins",
          children: [rule({ id: 4, pid: 3, type: "button", name: "auth/admin/add", menu_type: null })],
        }),
        rule({ id: 5, pid: 2, name: "docs", menu_type: "iframe", url: "https://example.com/docs?a=1", title: "Docs" }),
        rule({ id: 6, pid: 2, name: "site", menu_type: "link", url: "https://example.com" }),
      ],
    }),
  ];

  it("maps tab, iframe and link entries to their targets", () => {
    expect(menuTarget(tree[0]!, "admin")).toEqual({ kind: "route", to: "/admin/dashboard" });
    expect(menuTarget(rule({ menu_type: "iframe", url: "https://x.test/a b" }), "user")).toEqual({
      kind: "route",
      to: "/user/iframe/https%3A%2F%2Fx.test%2Fa%20b",
    });
    expect(menuTarget(rule({ menu_type: "link", url: "https://x.test" }), "admin")).toEqual({ kind: "external", to: "https://x.test" });
  });

  it("lists the openable routes, all flagged addtab, and the first one", () => {
    expect(menuRoutes(tree, "admin").map((r) => [r.path, r.addtab])).toEqual([
      ["/admin/dashboard", true],
      ["/admin/auth/admin", true],
      ["/admin/iframe/https%3A%2F%2Fexample.com%2Fdocs%3Fa%3D1", true],
    ]);
    expect(firstRoute(tree, "admin")).toBe("/admin/dashboard");
  });

  it("derives permission nodes from buttons", () => {
    const nodes = authNodes(tree, "admin");
    expect(nodes.get("/admin/auth/admin")).toEqual(["/admin/auth/admin/add"]);
    expect(nodes.get("/admin/dashboard")).toEqual([]);
  });
});

describe("admin tabs (SPEC §2)", () => {
  const open = (tabs: Tab[], path: string, search = "", addtab = true) => addTab(tabs, { path, search, addtab });
  it("adds only addtab routes", () => {
    expect(open([], "/admin/x", "", false)).toEqual([]);
    expect(open([], "/admin/x")).toEqual([{ path: "/admin/x", search: "" }]);
  });
  it("updates the query of an open path instead of adding a tab", () => {
    const one = open([], "/admin/x", "?id=1");
    const again = open(one, "/admin/x", "?id=2");
    expect(again).toEqual([{ path: "/admin/x", search: "?id=2" }]);
    expect(open(again, "/admin/x", "?id=2")).toBe(again);
  });
  it("closing picks the tab to its right, else its left", () => {
    const tabs = open(open(open([], "/a"), "/b"), "/c");
    expect(closeTab(tabs, "/b").next?.path).toBe("/c");
    expect(closeTab(tabs, "/c").next?.path).toBe("/b");
    expect(closeTab(tabs, "/zzz").tabs).toBe(tabs);
  });
});

describe("loading route target (SPEC §2)", () => {
  it("carries path and query as JSON and reads them back", () => {
    const target = { path: "/admin/auth/admin", query: { id: "3", q: "a b" } };
    const url = loadingPath("/admin", target);
    expect(url.startsWith("/admin/loading/")).toBe(true);
    const param = decodeURIComponent(url.slice("/admin/loading/".length));
    expect(parseLoadingTarget(param)).toEqual(target);
    expect(targetUrl(target)).toBe("/admin/auth/admin?id=3&q=a+b");
    expect(loadingPath("/user")).toBe("/user/loading");
  });
  it.each(["not json", JSON.stringify({ path: "https://evil.test" }), JSON.stringify({ path: "//evil.test" }), JSON.stringify({})])(
    "ignores an unusable target %s",
    (param) => {
      expect(parseLoadingTarget(param)).toBeUndefined();
    },
  );
});
