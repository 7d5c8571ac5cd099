import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import { CrudScreen } from "../../src/client/admin/crud/CrudScreen.tsx";
import { checkIndex, stateOf, toggle } from "../../src/client/admin/crud/fields/checkTree.ts";
import { iconChoices } from "../../src/client/admin/crud/fields/IconPicker.tsx";
import { flattenTree, nestRows, subtreeIds } from "../../src/client/admin/crud/tree.ts";
import type { CrudDefinition, CrudRow } from "../../src/client/admin/crud/types.ts";
import { DynamicRoute } from "../../src/client/routing/DynamicRoute.tsx";
import { lazyScreen } from "../../src/client/routing/lazyScreen.ts";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";
import { envelope, paramsOf } from "./crud-example.tsx";
import { openSelect, optionNames } from "../helpers/select.ts";

// Only the request function is replaced: the engine, its fields, react-hook-form and Query run for real.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
  // jsdom has no ResizeObserver; Radix's popover measures its trigger with one.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});

/** A rule tree: 1 Members (dir) > 2 Member list (menu) > 3 view, 4 add; 5 Settings (menu); 6 Orphan whose parent 99 is elsewhere. */
const RULES: CrudRow[] = [
  { id: 1, pid: 0, title: "Members", type: "menu_dir" },
  { id: 2, pid: 1, title: "Member list", type: "menu" },
  { id: 3, pid: 2, title: "View", type: "button" },
  { id: 4, pid: 2, title: "Add", type: "button" },
  { id: 5, pid: 0, title: "Settings", type: "menu" },
  { id: 6, pid: 99, title: "Orphan", type: "menu" },
];
const GROUPS: CrudRow[] = [
  { id: 10, pid: 0, name: "Staff" },
  { id: 11, pid: 10, name: "Editors" },
  { id: 12, pid: 11, name: "Juniors" },
  { id: 13, pid: 0, name: "Guests" },
];

describe("nesting flat pid rows", () => {
  it("puts rows under their parents in the order they came, and makes a row whose parent is not on the page a root", () => {
    const roots = nestRows(RULES);
    expect(roots.map((r) => r.id)).toEqual([1, 5, 6]);
    expect(roots[0]!.children!.map((r) => r.id)).toEqual([2]);
    expect(roots[0]!.children![0]!.children!.map((r) => r.id)).toEqual([3, 4]);
    expect(roots[1]!.children).toBeUndefined();
    expect(flattenTree(roots).map(({ row, depth }) => `${row.id}:${depth}`)).toEqual(["1:0", "2:1", "3:2", "4:2", "5:0", "6:0"]);
    // The input is not changed.
    expect(RULES[0]).not.toHaveProperty("children");
  });

  it("survives a cycle (each row of it a root) and takes rows that already carry children as they are", () => {
    const cycle = nestRows([
      { id: 1, pid: 2 },
      { id: 2, pid: 1 },
      { id: 3, pid: 3 },
    ]);
    expect(flattenTree(cycle)).toHaveLength(3);
    const nested = [{ id: 1, children: [{ id: 2 }] }];
    expect(nestRows(nested)).toBe(nested);
  });

  it("finds a row's subtree", () => {
    expect([...subtreeIds(GROUPS, 10)].sort()).toEqual([10, 11, 12]);
    expect([...subtreeIds(GROUPS, 13)]).toEqual([13]);
  });
});

describe("checkbox tree state", () => {
  const index = checkIndex(RULES);
  it("checks a parent with all under it and its ancestors, half-checks a parent with some", () => {
    const menu = toggle(index, new Set(), 2);
    expect([...menu].sort()).toEqual([1, 2, 3, 4]);
    expect(stateOf(index, menu, 1)).toBe("checked");
    const viewOnly = toggle(index, new Set(), 3);
    expect([...viewOnly].sort()).toEqual([1, 2, 3]);
    expect(stateOf(index, viewOnly, 2)).toBe("partial");
    expect(stateOf(index, viewOnly, 1)).toBe("partial");
    expect(stateOf(index, viewOnly, 4)).toBe("unchecked");
  });

  it("unchecks a subtree and drops ancestors left with nothing under them", () => {
    const none = toggle(index, new Set([1, 2, 3]), 3);
    expect([...none]).toEqual([]);
    const partial = toggle(index, new Set([1, 2, 3, 4]), 4);
    expect([...partial].sort()).toEqual([1, 2, 3]);
    expect(toggle(index, new Set([1, 2, 3, 4, 5]), 1)).toEqual(new Set([5]));
  });
});

describe("the icon choices", () => {
  it("are the side menu's icons, filtered by the search text", () => {
    expect(iconChoices("")).toContain("user-cog");
    expect(iconChoices("user")).toEqual(expect.arrayContaining(["user-cog", "user-round", "users-round"]));
    expect(iconChoices("user").every((n) => n.includes("user"))).toBe(true);
    expect(iconChoices("no-such-icon")).toEqual([]);
  });
});

// ---- The fields inside the engine's form ----

const BASE = "/admin/demo/thing";
const afterChange = vi.fn();
const thing: CrudDefinition = {
  path: "demo/thing",
  title: msg`Things`,
  tree: true,
  columns: [
    { field: "name", label: msg`Name` },
    { field: "id", label: msg`ID` },
  ],
  form: [
    {
      field: "type",
      label: msg`Type`,
      kind: "radio",
      initial: "menu",
      options: [
        { value: "menu", label: msg`Menu` },
        { value: "button", label: msg`Button` },
      ],
    },
    { field: "name", label: msg`Name`, kind: "text" },
    { field: "pid", label: msg`Parent`, kind: "treeSelect", tree: { path: "demo/thing", label: "name" } },
    { field: "path", label: msg`Route path`, kind: "text", when: (v) => v.type === "menu" },
    { field: "icon", label: msg`Icon`, kind: "iconPicker", when: (v) => v.type === "menu" },
    { field: "keepalive", label: msg`Keep alive`, kind: "switch", boolean: true, when: (v) => v.type === "menu" },
    { field: "rules", label: msg`Rules`, kind: "checkboxTree", tree: { path: "demo/rule", label: "title" } },
    { field: "group_ids", label: msg`Groups`, kind: "multiSelect", tree: { path: "demo/group", label: "name" } },
  ],
  afterChange,
  detail: true,
  detailLabels: { data: msg`Request data` },
};

const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);
const sentTo = (url: string) => calls().filter((c) => c.url === url && c.method === "post");

beforeEach(() => {
  afterChange.mockReset();
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    const params = paramsOf(config);
    if (config.url === "/admin/demo/group/index") return envelope({ list: GROUPS, total: GROUPS.length });
    if (config.url === "/admin/demo/rule/index") return envelope({ list: RULES, total: RULES.length });
    // The list itself: flat rows with pid, as the server sends them.
    if (config.url === `${BASE}/index`) return envelope({ list: GROUPS, total: GROUPS.length });
    if (config.url === `${BASE}/edit` && config.method === "get") {
      return envelope({ row: { id: Number(params.id), type: "button", name: "Editors", pid: Number(params.id) === 11 ? 10 : 0, rules: [1, 2, 3], group_ids: [13], data: '{"password":"***","page":2}' } });
    }
    return envelope(null);
  }) as never);
  useNavTabs.setState({ authNode: new Map([[BASE, ["add", "edit", "del"].map((a) => `${BASE}/${a}`)]]) });
});
afterEach(() => vi.mocked(request).mockReset());

function renderThing() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[BASE]}>
          <CrudScreen definition={thing} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

async function openAdd() {
  renderThing();
  await screen.findByText("Staff");
  await userEvent.click(screen.getByRole("button", { name: "Add" }));
  return screen.findByRole("dialog", { name: /Add/ });
}

describe("a tree list from flat rows", () => {
  it("nests the server's pid rows: children appear when their parent expands", async () => {
    renderThing();
    await screen.findByText("Staff");
    expect(screen.queryByText("Editors")).toBeNull();
    expect(screen.getByText("Guests")).toBeInTheDocument();
    await userEvent.click(within(screen.getByText("Staff").closest("tr")!).getByRole("button", { name: "Expand" }));
    expect(await screen.findByText("Editors")).toBeInTheDocument();
  });
});

describe("a tree list reads every page", () => {
  it("fetches page after page (100 rows each), so a child on page 2 nests under its parent on page 1", async () => {
    const many: CrudRow[] = [{ id: 1, pid: 0, name: "Root" }, ...Array.from({ length: 148 }, (_, i) => ({ id: i + 2, pid: 0, name: `Row ${i + 2}` })), { id: 150, pid: 1, name: "Late child" }];
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
      const { page, limit } = paramsOf(config) as { page: number; limit: number };
      return envelope({ list: many.slice((page - 1) * limit, page * limit), total: many.length });
    }) as never);
    renderThing();
    await screen.findByText("Root");
    expect(calls().map((c) => [paramsOf(c).page, paramsOf(c).limit])).toEqual([
      [1, 100],
      [2, 100],
    ]);
    expect(screen.queryByText("Late child")).toBeNull();
    expect(screen.getByText("Row 149")).toBeInTheDocument();
    await userEvent.click(within(screen.getByText("Root").closest("tr")!).getByRole("button", { name: "Expand" }));
    expect(await screen.findByText("Late child")).toBeInTheDocument();
    // No pager on a tree.
    expect(screen.queryByLabelText("Rows per page")).toBeNull();
  }, 30_000);
});

describe("the form's new field kinds", () => {
  it("shows a field only while its `when` holds, and sends no hidden field", async () => {
    const dialog = await openAdd();
    expect(within(dialog).getByLabelText("Route path")).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText("Route path"), "things");
    await userEvent.click(within(dialog).getByRole("radio", { name: "Button" }));
    expect(within(dialog).queryByLabelText("Route path")).toBeNull();
    expect(within(dialog).queryByRole("switch", { name: "Keep alive" })).toBeNull();
    await userEvent.type(within(dialog).getByLabelText("Name"), "x");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sentTo(`${BASE}/add`)).toHaveLength(1));
    expect(sentTo(`${BASE}/add`)[0]!.data).toEqual({ type: "button", name: "x", pid: 0, rules: [], group_ids: [] });
    expect(afterChange).toHaveBeenCalledTimes(1);
  });

  it("sends a boolean switch as true/false and the picked icon's name", async () => {
    const dialog = await openAdd();
    await userEvent.click(within(dialog).getByRole("switch", { name: "Keep alive" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Icon" }));
    const picker = await screen.findByRole("listbox", { name: "Icons" });
    await userEvent.type(screen.getByRole("searchbox", { name: "Search icons" }), "cog");
    await waitFor(() => expect(within(picker).getAllByRole("option").map((o) => o.getAttribute("aria-label"))).toEqual(["user-cog"]));
    await userEvent.click(within(picker).getByRole("option", { name: "user-cog" }));
    expect(within(dialog).getByRole("button", { name: "Icon" })).toHaveTextContent("user-cog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sentTo(`${BASE}/add`)).toHaveLength(1));
    expect(sentTo(`${BASE}/add`)[0]!.data).toMatchObject({ type: "menu", keepalive: true, icon: "user-cog", path: "" });
  });

  it("offers the tree's rows indented as parents, leaving out the edited row and everything under it", async () => {
    renderThing();
    await screen.findByText("Staff");
    await userEvent.click(screen.getByRole("button", { name: "Edit row 10" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    const parent = within(dialog).getByLabelText("Parent");
    await waitFor(() => expect(parent).not.toHaveAttribute("aria-busy"));
    expect(parent).toHaveTextContent("None (top level)");
    expect(await optionNames(parent)).toEqual(["None (top level)", "Guests"]);
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    // Adding: every row, nested.
    await userEvent.click(screen.getByRole("button", { name: "Add" }));
    const add = await screen.findByRole("dialog", { name: /Add/ });
    await waitFor(() => expect(within(add).getByLabelText("Parent")).not.toHaveAttribute("aria-busy"));
    const list = await openSelect(within(add).getByLabelText("Parent"));
    const options = within(list).getAllByRole("option");
    expect(options.map((o) => o.textContent)).toEqual(["None (top level)", "Staff", "Editors", "Juniors", "Guests"]);
    // Nested rows are indented by their depth.
    expect(options.map((o) => o.style.paddingInlineStart)).toEqual(["0.5rem", "0.5rem", "1.75rem", "3rem", "0.5rem"]);
    within(list).getByRole("option", { name: "Juniors" }).focus();
    await userEvent.keyboard("{Enter}");
    await userEvent.type(within(add).getByLabelText("Name"), "y");
    await userEvent.click(within(add).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sentTo(`${BASE}/add`)).toHaveLength(1));
    expect(sentTo(`${BASE}/add`)[0]!.data).toMatchObject({ pid: 12 });
  });

  it("checks a parent's whole branch in the checkbox tree, half-checks partial parents, and sends the chosen ids", async () => {
    renderThing();
    await screen.findByText("Staff");
    await userEvent.click(screen.getByRole("button", { name: "Edit row 10" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    const rules = within(dialog).getByRole("group", { name: "Rules" });
    const box = (name: string) => within(rules).getByRole("checkbox", { name }) as HTMLInputElement;
    // Loaded as [1, 2, 3]: view checked, add not, so the menu and the directory are half-checked.
    await waitFor(() => expect(box("Members").indeterminate).toBe(true));
    // Menus start folded: open "Member list" to reach its buttons.
    await userEvent.click(within(rules).getByRole("button", { name: "Expand Member list" }));
    expect(box("View").checked).toBe(true);
    expect(box("Add").checked).toBe(false);
    expect(box("Member list").indeterminate).toBe(true);
    await userEvent.click(box("Member list"));
    expect(box("Add").checked).toBe(true);
    expect(box("Members").checked).toBe(true);
    expect(box("Members").indeterminate).toBe(false);
    await userEvent.click(box("Settings"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sentTo(`${BASE}/edit`)).toHaveLength(1));
    expect(sentTo(`${BASE}/edit`)[0]!.data).toMatchObject({ id: 10, rules: [1, 2, 3, 4, 5] });
  });

  it("chooses several rows in the multi-select and removes one from its chips", async () => {
    renderThing();
    await screen.findByText("Staff");
    await userEvent.click(screen.getByRole("button", { name: "Edit row 10" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    const trigger = within(dialog).getByRole("button", { name: "Groups" });
    await waitFor(() => expect(trigger).toHaveTextContent("Guests"));
    await userEvent.click(trigger);
    await userEvent.type(await screen.findByRole("searchbox", { name: "Type to search" }), "ors");
    await waitFor(() => expect(screen.queryByRole("checkbox", { name: "Staff" })).toBeNull());
    await userEvent.click(screen.getByRole("checkbox", { name: "Editors" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Juniors" }));
    await userEvent.keyboard("{Escape}");
    await userEvent.click(within(dialog).getByRole("button", { name: "Remove Editors" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sentTo(`${BASE}/edit`)).toHaveLength(1));
    expect(sentTo(`${BASE}/edit`)[0]!.data).toMatchObject({ group_ids: [13, 12] });
  });

  it("opens a row's read-only view with its JSON indented", async () => {
    renderThing();
    await screen.findByText("Staff");
    await userEvent.click(screen.getByRole("button", { name: "View row 13" }));
    const dialog = await screen.findByRole("dialog", { name: /Details/ });
    expect(await within(dialog).findByText("Editors")).toBeInTheDocument();
    expect(within(dialog).getByText(/"page": 2/).tagName).toBe("PRE");
    // A field the list has no column for is named by the screen's detail labels, else by its key.
    expect(within(dialog).getByText(/"page": 2/).closest("div")!.querySelector("dt")).toHaveTextContent("Request data");
    expect(within(dialog).getByText("group_ids")).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: "Save" })).toBeNull();
    expect(calls().some((c) => c.url === `${BASE}/edit` && paramsOf(c).id === 13)).toBe(true);
  });
});

describe("a screen the admin's rules do not open", () => {
  function at(path: string) {
    render(
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/401" element={<p>member no permission page</p>} />
            <Route path="/admin/401" element={<p>no permission page</p>} />
            <Route path="/404" element={<p>not found page</p>} />
            <Route path="/admin/*" element={<DynamicRoute area="admin" loaded routes={[]} registry={{ "auth/admin": (() => null) as never }} />} />
          </Routes>
        </MemoryRouter>
      </I18nProvider>,
    );
  }
  it("shows the back office's own 401 for a screen the app has", async () => {
    at("/admin/auth/admin");
    expect(await screen.findByText("no permission page")).toBeInTheDocument();
  });
  it("shows 404 for an unknown path", async () => {
    at("/admin/auth/nothing");
    expect(await screen.findByText("not found page")).toBeInTheDocument();
  });
});

describe("a menu route while the rules load", () => {
  it("asks for the path's screen beside them, and only that one", async () => {
    const screenLoad = vi.fn(() => new Promise<{ default: () => null }>(() => undefined));
    const otherLoad = vi.fn(() => new Promise<{ default: () => null }>(() => undefined));
    const registry = { "course/index": lazyScreen(screenLoad), "account/overview": lazyScreen(otherLoad) };
    render(
      <MemoryRouter initialEntries={["/user/course/index"]}>
        <Routes>
          <Route path="/user/loading/*" element={<p>loading the rules</p>} />
          <Route path="/user/*" element={<DynamicRoute area="user" loaded={false} routes={[]} registry={registry} />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(await screen.findByText("loading the rules")).toBeInTheDocument();
    expect(screenLoad).toHaveBeenCalledTimes(1);
    expect(otherLoad).not.toHaveBeenCalled();
  });
});
