import fs from "node:fs";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Folder, SquareMenu } from "lucide-react";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { act } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type * as ApiModule from "../../src/client/api/index.ts";
import { activateLanguage, changeLanguage } from "../../src/client/i18n/index.ts";
import { useConfig } from "../../src/client/stores/config.ts";
import { menuIcon, MENU_ICONS } from "../../src/client/admin/menuIcons.tsx";
import { TabBar } from "../../src/client/admin/TabBar.tsx";
import { authNodes, menuRoutes, type MenuRule } from "../../src/client/routing/menus.ts";
import IframePage from "../../src/client/app/pages/IframePage.tsx";
import { safeContactUrl } from "../../src/client/app/pages/NoPermissionPage.tsx";
import { STORE_TAB_VIEW } from "../../src/client/stores/keys.ts";
import { useMemberCenter } from "../../src/client/stores/memberCenter.ts";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";
import "../../src/client/admin/session.ts";

// /admin/index/index answers with the menus in the language of the request (its think-lang header).
vi.mock("../../src/client/api/index.ts", async (real) => ({
  ...(await real<typeof ApiModule>()),
  request: async () => ({ code: 1, msg: "", data: { menus: adminMenus(useConfig.getState().lang.defaultLang) } }),
}));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const rule = (over: Partial<MenuRule>): MenuRule => ({
  id: 1,
  pid: 0,
  type: "menu",
  title: "",
  name: "",
  path: "",
  icon: "",
  menu_type: "tab",
  url: "",
  component: "",
  keepalive: 0,
  extend: "none",
  children: [],
  ...over,
});

/** The admin's menus as /admin/index/index sends them, in the language of the request. */
const adminMenus = (lang: "zh-cn" | "en"): MenuRule[] => [
  rule({ id: 1, name: "dashboard", path: "dashboard", component: "dashboard", title: lang === "en" ? "Dashboard" : "控制台" }),
  rule({ id: 2, name: "exam/question", path: "exam/question", component: "exam/question", title: lang === "en" ? "Questions" : "题目" }),
  rule({ id: 3, name: "docs", menu_type: "iframe", url: "https://example.com/docs?a=1", title: lang === "en" ? "Docs" : "文档" }),
];

/** What a page load does once /admin/index/index answered (admin/session.ts). */
function loadMenus(menus: MenuRule[]) {
  useNavTabs.getState().setMenus(menus, menuRoutes(menus, "admin"), authNodes(menus, "admin"));
}

function Where() {
  const { pathname } = useLocation();
  return <output data-testid="where">{pathname}</output>;
}

function renderAt(path: string, ui: ReactNode) {
  return render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={[path]}>
        <Where />
        {ui}
      </MemoryRouter>
    </I18nProvider>,
  );
}

function resetStores() {
  localStorage.clear();
  useNavTabs.setState({ tabs: [], menus: [], routes: [], authNode: new Map(), loaded: false });
  useMemberCenter.getState().reset();
}

describe("admin tab labels follow the language", () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  it("shows an open tab in the language the menus were loaded in, after a reload in another language", async () => {
    // In Chinese: the dashboard tab opens.
    loadMenus(adminMenus("zh-cn"));
    useNavTabs.getState().open({ path: "/admin/dashboard", search: "", addtab: true });
    const first = renderAt("/admin/dashboard", <TabBar />);
    const bar = screen.getByRole("navigation", { name: "Open pages" });
    expect(within(bar).getByRole("link", { name: "控制台" })).toHaveAttribute("aria-current", "page");
    first.unmount();

    // What survives the reload is the tab's path, not its translated label.
    const stored = localStorage.getItem(STORE_TAB_VIEW) ?? "";
    expect(JSON.parse(stored).state.tabs).toEqual([{ path: "/admin/dashboard", search: "" }]);
    expect(stored).not.toContain("控制台");

    // A reload in English: the store comes back from storage and the menus arrive in English.
    useNavTabs.setState({ tabs: [], menus: [], routes: [], loaded: false });
    localStorage.setItem(STORE_TAB_VIEW, stored);
    await useNavTabs.persist.rehydrate();
    loadMenus(adminMenus("en"));
    renderAt("/admin/dashboard", <TabBar />);
    const tab = within(screen.getByRole("navigation", { name: "Open pages" })).getByRole("link", { name: "Dashboard" });
    expect(tab).toHaveAttribute("aria-current", "page");
    expect(screen.getByRole("button", { name: "Close Dashboard" })).toBeInTheDocument();
    expect(screen.queryByText("控制台")).toBeNull();
  });

  it("shows the open tabs and menus in a language chosen on the page, without a reload", async () => {
    await activateLanguage("zh-cn");
    loadMenus(adminMenus("zh-cn"));
    useNavTabs.getState().open({ path: "/admin/exam/question", search: "", addtab: true });
    renderAt("/admin/exam/question", <TabBar />);
    expect(screen.getByRole("link", { name: "题目" })).toHaveAttribute("aria-current", "page");

    await act(() => changeLanguage("en"));
    // The menus are asked for again in English (admin/session.ts), and the tab follows.
    expect(await screen.findByRole("link", { name: "Questions" })).toHaveAttribute("aria-current", "page");
    expect(screen.queryByText("题目")).toBeNull();
    expect(useNavTabs.getState().menus.map((m) => m.title)).toEqual(["Dashboard", "Questions", "Docs"]);
  });

  it("drops a label stored by an older version and shows the current one", () => {
    localStorage.setItem(STORE_TAB_VIEW, JSON.stringify({ state: { tabs: [{ path: "/admin/exam/question", title: "题目", search: "?page=2" }] }, version: 0 }));
    void useNavTabs.persist.rehydrate();
    loadMenus(adminMenus("en"));
    expect(useNavTabs.getState().tabs).toEqual([{ path: "/admin/exam/question", search: "?page=2" }]);
    renderAt("/admin/dashboard", <TabBar />);
    const tab = screen.getByRole("link", { name: "Questions" });
    expect(tab).toHaveAttribute("href", "/admin/exam/question?page=2");
    expect(tab).not.toHaveAttribute("aria-current");
  });

  it("keeps the tab bar's controls out of any tablist: links and their close buttons in a navigation landmark", async () => {
    loadMenus(adminMenus("en"));
    useNavTabs.getState().open({ path: "/admin/dashboard", search: "", addtab: true });
    useNavTabs.getState().open({ path: "/admin/exam/question", search: "", addtab: true });
    renderAt("/admin/exam/question", <TabBar />);
    expect(screen.queryByRole("tablist")).toBeNull();
    expect(screen.queryByRole("tab")).toBeNull();
    await userEvent.setup().click(screen.getByRole("button", { name: "Close Questions" }));
    expect(useNavTabs.getState().tabs.map((t) => t.path)).toEqual(["/admin/dashboard"]);
    // Closing the open page's tab goes to the tab beside it.
    expect(screen.getByTestId("where")).toHaveTextContent("/admin/dashboard");
  });
});

describe("closing tabs in bulk", () => {
  beforeEach(resetStores);
  afterEach(resetStores);
  const openAll = () => {
    loadMenus(adminMenus("en"));
    for (const path of ["/admin/dashboard", "/admin/exam/question", docs]) useNavTabs.getState().open({ path, search: path === "/admin/exam/question" ? "?page=2" : "", addtab: true });
  };
  const paths = () => useNavTabs.getState().tabs.map((t) => t.path);
  const docs = `/admin/iframe/${encodeURIComponent("https://example.com/docs?a=1")}`;

  it("closes the other tabs from a tab's context menu, showing that tab, then all of them from it", async () => {
    openAll();
    renderAt("/admin/dashboard", <TabBar />);
    fireEvent.contextMenu(screen.getByRole("link", { name: "Questions" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Close other tabs" }));
    expect(paths()).toEqual(["/admin/exam/question"]);
    // The open page's tab was among those closed: the kept tab is shown, with its query.
    expect(screen.getByTestId("where")).toHaveTextContent("/admin/exam/question");

    fireEvent.contextMenu(screen.getByRole("link", { name: "Questions" }));
    const menu = await screen.findByRole("menu");
    // Nothing else to close.
    expect(within(menu).getByRole("menuitem", { name: "Close other tabs" })).toHaveAttribute("aria-disabled", "true");
    await userEvent.click(within(menu).getByRole("menuitem", { name: "Close all tabs" }));
    expect(paths()).toEqual([]);
    expect(screen.getByTestId("where")).toHaveTextContent(/^\/admin$/);
  });

  it("closes one tab from its context menu, and the others from the strip's menu", async () => {
    openAll();
    renderAt("/admin/exam/question", <TabBar />);
    fireEvent.contextMenu(screen.getByRole("link", { name: "Dashboard" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Close Dashboard" }));
    expect(paths()).toEqual(["/admin/exam/question", docs]);
    await userEvent.click(screen.getByRole("button", { name: "Tab actions" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Close other tabs" }));
    expect(paths()).toEqual(["/admin/exam/question"]);
    expect(screen.getByTestId("where")).toHaveTextContent("/admin/exam/question");
  });
});

describe("iframe routes show only the area's own iframe menus", () => {
  beforeEach(resetStores);
  afterEach(resetStores);

  const page = (path: string) =>
    renderAt(
      path,
      <Routes>
        <Route path="/admin/iframe/:url" element={<IframePage />} />
        <Route path="/user/iframe/:url" element={<IframePage />} />
        <Route path="*" element={null} />
      </Routes>,
    );

  it("frames the address of an iframe menu, titled by the menu, and opens its admin tab", () => {
    loadMenus(adminMenus("en"));
    page(`/admin/iframe/${encodeURIComponent("https://example.com/docs?a=1")}`);
    const frame = screen.getByTitle("Docs");
    expect(frame.tagName).toBe("IFRAME");
    expect(frame).toHaveAttribute("src", "https://example.com/docs?a=1");
    expect(useNavTabs.getState().tabs.map((t) => t.path)).toEqual([`/admin/iframe/${encodeURIComponent("https://example.com/docs?a=1")}`]);
  });

  it("sends any other address to /404 instead of framing it", () => {
    loadMenus(adminMenus("en"));
    page(`/admin/iframe/${encodeURIComponent("https://evil.example/login")}`);
    expect(screen.queryByTitle(/./)).toBeNull();
    expect(document.querySelector("iframe")).toBeNull();
    expect(screen.getByTestId("where")).toHaveTextContent("/404");
  });

  it("goes through the area's loading route before the menus are loaded", () => {
    page(`/user/iframe/${encodeURIComponent("https://example.com/help")}`);
    expect(document.querySelector("iframe")).toBeNull();
    expect(screen.getByTestId("where").textContent).toMatch(/^\/user\/loading\/%7B%22path%22/);
  });

  it("uses the member center's own menus on the member side", () => {
    loadMenus(adminMenus("en"));
    const help = [rule({ id: 9, name: "help", menu_type: "iframe", url: "https://example.com/help", title: "Help" })];
    useMemberCenter.getState().setMenus(help, menuRoutes(help, "user"), authNodes(help, "user"));
    page(`/user/iframe/${encodeURIComponent("https://example.com/help")}`);
    expect(screen.getByTitle("Help")).toHaveAttribute("src", "https://example.com/help");
    // The admin's iframe menu is not the member's.
    resetStores();
    useMemberCenter.getState().setMenus(help, menuRoutes(help, "user"), authNodes(help, "user"));
    page(`/user/iframe/${encodeURIComponent("https://example.com/docs?a=1")}`);
    expect(screen.getAllByTestId("where").at(-1)).toHaveTextContent("/404");
  });
});

describe("menu icons", () => {
  /** The rules every install gets, read from their migration. */
  const builtIn = [...fs.readFileSync("src/server/db/migrations/0003_rules.sql", "utf8").matchAll(/insert into admin_rule \([^)]*\) values \((?:0|\(select id from admin_rule where name = '[^']+'\)), '(menu|menu_dir)', '[^']*', '[^']*', '([^']+)'/g)].map(
    (m) => ({ type: m[1] as MenuRule["type"], name: m[2]!, icon: "" }),
  );

  it("gives every built-in directory and menu its own icon, not the generic fallback", () => {
    expect(builtIn.length).toBeGreaterThan(30);
    for (const r of builtIn) {
      const icon = menuIcon(r);
      expect(icon, r.name).not.toBe(Folder);
      expect(icon, r.name).not.toBe(SquareMenu);
    }
    // Top-level entries are told apart by their icons.
    const top = ["dashboard", "auth", "org", "user", "course", "exam", "routine", "security", "crud/crud", "moduleStore/moduleStore"];
    expect(new Set(top.map((name) => menuIcon(builtIn.find((r) => r.name === name)!))).size).toBe(top.length);
  });

  it("uses the icon a rule names when the app has it, in any of lucide's spellings", () => {
    const wallet = MENU_ICONS["wallet"];
    expect(menuIcon({ type: "menu", name: "dashboard", icon: "wallet" })).toBe(wallet);
    expect(menuIcon({ type: "menu", name: "x", icon: "Wallet" })).toBe(wallet);
    expect(menuIcon({ type: "menu", name: "x", icon: "local-wallet" })).toBe(wallet);
    expect(menuIcon({ type: "menu", name: "x", icon: "LayoutDashboard" })).toBe(MENU_ICONS["layout-dashboard"]);
    // Unknown names and font classes fall back to the rule's name, then to its type.
    expect(menuIcon({ type: "menu", name: "dashboard", icon: "fa fa-dashboard" })).toBe(MENU_ICONS["layout-dashboard"]);
    expect(menuIcon({ type: "menu_dir", name: "custom", icon: "no-such-icon" })).toBe(Folder);
    expect(menuIcon({ type: "menu", name: "custom", icon: "" })).toBe(SquareMenu);
  });
});

describe("the 401 page's contact link", () => {
  it("links only an email or web address the site configured", () => {
    expect(safeContactUrl("mailto:admin@example.com")).toBe("mailto:admin@example.com");
    expect(safeContactUrl("https://example.com/help")).toBe("https://example.com/help");
    for (const bad of ["", undefined, "mailto:", "javascript:alert(1)", "data:text/html,x", "//evil.example", "mailto:a@b c"]) {
      expect(safeContactUrl(bad), String(bad)).toBeNull();
    }
  });
});
