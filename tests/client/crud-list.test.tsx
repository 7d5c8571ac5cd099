import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import { useAdminInfo } from "../../src/client/stores/adminInfo.ts";
import type { CrudRow } from "../../src/client/admin/crud/types.ts";
import { envelope, grant, memberRows, members, paramsOf, renderScreen } from "./crud-example.tsx";
import { chooseOption } from "../helpers/select.ts";

// Only the request function is replaced: the screen, TanStack Query and Table run for real.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

let listed: { list: CrudRow[]; total: number; recycle?: boolean } = { list: memberRows(10), total: 45 };
const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);
const listCalls = () => calls().filter((c) => c.url === "/admin/user/user/index");
const lastList = () => paramsOf(listCalls().at(-1)!);

beforeEach(() => {
  listed = { list: memberRows(10), total: 45 };
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    if (config.url?.endsWith("/index")) return envelope({ ...listed, remark: "" });
    return envelope(null);
  }) as never);
  grant("add", "edit", "del", "sortable");
});

afterEach(() => vi.mocked(request).mockReset());

async function shown() {
  renderScreen();
  return screen.findByRole("table", { name: "Members" });
}

describe("the list screen of a definition", () => {
  it("renders the definition's visible columns and cells, and shows a hidden column on demand", async () => {
    const table = await shown();
    await within(table).findByText("user1");
    const headers = within(table).getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["", "ID", "Username", "Status", "Created", "Actions"]);
    const first = within(table).getAllByRole("row")[1]!;
    // A tag shows its option's label, not the stored value.
    expect(within(first).getByText("Enabled")).toBeTruthy();
    expect(within(first).queryByText("enable")).toBeNull();
    expect(within(table).queryByText("13800000001")).toBeNull();
    expect(lastList()).toEqual({ page: 1, limit: 10 });

    await userEvent.click(screen.getByRole("button", { name: "Columns" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Mobile" }));
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toContain("Mobile");
    expect(within(table).getByText("13800000001")).toBeTruthy();
  });

  it("opens with the columns and page size this admin left it with, another admin with the screen's own", async () => {
    useAdminInfo.setState({ id: 7 });
    const first = renderScreen();
    await screen.findByRole("table", { name: "Members" });
    await userEvent.click(screen.getByRole("button", { name: "Columns" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Mobile" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Status" }));
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Rows per page" }), "50");
    await waitFor(() => expect(lastList()).toEqual({ page: 1, limit: 50 }));
    first.unmount();

    // The next visit, the same admin: as left.
    renderScreen();
    let table = await screen.findByRole("table", { name: "Members" });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["", "ID", "Username", "Mobile", "Created", "Actions"]);
    expect(screen.getByRole("combobox", { name: "Rows per page" })).toHaveValue("50");
    await waitFor(() => expect(lastList()).toEqual({ page: 1, limit: 50 }));
    cleanup();

    // Another admin in the same browser: the screen's defaults.
    useAdminInfo.setState({ id: 8 });
    renderScreen();
    table = await screen.findByRole("table", { name: "Members" });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["", "ID", "Username", "Status", "Created", "Actions"]);
    await waitFor(() => expect(lastList()).toEqual({ page: 1, limit: 10 }));
    useAdminInfo.setState({ id: 0 });
  });

  it("sorts by a sortable column's header: asc, then desc, as order=field,dir", async () => {
    const table = await shown();
    await within(table).findByText("user1");
    // Status is not sortable: its header is plain text.
    expect(within(table).queryByRole("button", { name: "Status" })).toBeNull();
    await userEvent.click(within(table).getByRole("button", { name: /Username/ }));
    await waitFor(() => expect(lastList()).toMatchObject({ order: "username,asc", page: 1 }));
    expect(within(table).getByRole("columnheader", { name: /Username/ }).getAttribute("aria-sort")).toBe("ascending");
    await userEvent.click(within(table).getByRole("button", { name: /Username/ }));
    await waitFor(() => expect(lastList()).toMatchObject({ order: "username,desc" }));
  });

  it("sends the search form as search[] items whose operator fits each column", async () => {
    const table = await shown();
    await within(table).findByText("user1");
    await userEvent.click(screen.getByRole("button", { name: "Search form" }));
    const form = screen.getByRole("search", { name: "Search form" });
    await userEvent.type(within(form).getByLabelText("Username"), "ann");
    await chooseOption(within(form).getByLabelText("Status"), "Disabled");
    await userEvent.type(within(form).getByLabelText("ID from"), "5");
    fireEvent.change(within(form).getByLabelText("Created to"), { target: { value: "2024-05-02T14:05" } });
    await userEvent.click(within(form).getByRole("button", { name: "Search" }));
    const until = String(new Date(2024, 4, 2, 14, 5).getTime() / 1000);
    await waitFor(() =>
      expect(lastList()).toEqual({
        page: 1,
        limit: 10,
        "search[0][field]": "id",
        "search[0][val]": "5,",
        "search[0][operator]": "RANGE",
        "search[1][field]": "username",
        "search[1][val]": "ann",
        "search[1][operator]": "LIKE",
        "search[2][field]": "status",
        "search[2][val]": "disable",
        "search[2][operator]": "eq",
        "search[3][field]": "create_time",
        "search[3][val]": `,${until}`,
        "search[3][operator]": "RANGE",
      }),
    );
    await userEvent.click(within(form).getByRole("button", { name: "Reset" }));
    await waitFor(() => expect(lastList()).toEqual({ page: 1, limit: 10 }));
    expect(within(form).getByLabelText("Username")).toHaveValue("");
    expect(within(form).getByLabelText("ID from")).toHaveValue(null);
  });

  it("quick search sends quickSearch and goes back to page 1", async () => {
    const table = await shown();
    await within(table).findByText("user1");
    await userEvent.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(lastList()).toMatchObject({ page: 2 }));
    await userEvent.type(screen.getByRole("searchbox", { name: "ID, username, nickname" }), "  bob {Enter}");
    await waitFor(() => expect(lastList()).toEqual({ page: 1, limit: 10, quickSearch: "bob" }));
  });

  it("pages through the total and changes the page size", async () => {
    const table = await shown();
    await within(table).findByText("user1");
    expect(screen.getByText("Page 1 of 5")).toBeTruthy();
    expect(screen.getByText("45 records in total")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(lastList()).toEqual({ page: 2, limit: 10 }));
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Rows per page" }), "20");
    await waitFor(() => expect(lastList()).toEqual({ page: 1, limit: 20 }));
    expect(await screen.findByText("Page 1 of 3")).toBeTruthy();
  });

  it("batch delete asks first, then sends the selected ids[] and lists again", async () => {
    const table = await shown();
    await within(table).findByText("user1");
    const del = screen.getByRole("button", { name: "Delete" });
    expect((del as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(within(table).getByRole("checkbox", { name: "Select row 2" }));
    await userEvent.click(within(table).getByRole("checkbox", { name: "Select row 5" }));
    await userEvent.click(del);
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog.textContent).toContain("Delete 2 rows?");
    // Cancel sends nothing.
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(calls().some((c) => c.url === "/admin/user/user/del")).toBe(false);

    await userEvent.click(del);
    const again = await screen.findByRole("alertdialog");
    const before = listCalls().length;
    await userEvent.click(within(again).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(calls().find((c) => c.url === "/admin/user/user/del")).toBeTruthy());
    const sent = calls().find((c) => c.url === "/admin/user/user/del")!;
    expect(sent.method).toBe("delete");
    expect(paramsOf(sent)).toEqual({ ids: [2, 5] });
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
  });

  it("says where deleted rows go: the recycle bin when a rule keeps them, else nowhere", async () => {
    for (const recycle of [true, false]) {
      listed = { list: memberRows(10), total: 45, recycle };
      const table = await shown();
      await within(table).findByText("user1");
      await userEvent.click(within(table).getByRole("checkbox", { name: "Select row 3" }));
      await userEvent.click(screen.getByRole("button", { name: "Delete" }));
      const dialog = await screen.findByRole("alertdialog");
      expect(dialog.textContent).toContain("Delete 1 row?");
      expect(dialog.textContent?.includes("recycle bin, where they can be restored")).toBe(recycle);
      expect(dialog.textContent?.includes("cannot be undone")).toBe(!recycle);
      await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
      cleanup();
    }
  });

  it("hides every write button whose rule the admin lacks", async () => {
    grant();
    const table = await shown();
    await within(table).findByText("user1");
    expect(screen.queryByRole("button", { name: "Add" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Delete" })).toBeNull();
    expect(within(table).queryAllByRole("checkbox")).toHaveLength(0);
    expect(within(table).queryByRole("button", { name: /Edit row/ })).toBeNull();
    expect(within(table).queryByRole("button", { name: /Move row/ })).toBeNull();
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).not.toContain("Actions");
  });

  it("shows only the granted ones", async () => {
    grant("add", "edit");
    const table = await shown();
    await within(table).findByText("user1");
    expect(screen.getByRole("button", { name: "Add" })).toBeTruthy();
    expect(within(table).getByRole("button", { name: "Edit row 1" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Delete" })).toBeNull();
    expect(within(table).queryByRole("button", { name: "Delete row 1" })).toBeNull();
  });

  it("reorders a sortable row with the arrow keys through sortable {id, targetId}", async () => {
    const table = await shown();
    await within(table).findByText("user1");
    const handle = within(table).getByRole("button", { name: "Move row 3 (arrow keys)" });
    fireEvent.keyDown(handle, { key: "ArrowDown" });
    await waitFor(() => expect(calls().find((c) => c.url === "/admin/user/user/sortable")).toBeTruthy());
    const sent = calls().find((c) => c.url === "/admin/user/user/sortable")!;
    expect(sent.method).toBe("post");
    expect(sent.data).toEqual({ id: 3, targetId: 4 });
  });

  it("reorders by dragging a row onto another", async () => {
    const table = await shown();
    await within(table).findByText("user1");
    const rows = within(table).getAllByRole("row");
    fireEvent.dragStart(rows[2]!);
    fireEvent.dragOver(rows[7]!);
    fireEvent.drop(rows[7]!);
    await waitFor(() => expect(calls().find((c) => c.url === "/admin/user/user/sortable")?.data).toEqual({ id: 2, targetId: 7 }));
  });

  it("shows tree rows collapsed and expands them", async () => {
    listed = {
      list: [{ id: 1, username: "root", status: "enable", create_time: 0, children: [{ id: 2, username: "leaf", status: "enable", create_time: 0 }] }],
      total: 1,
    };
    const table = await (async () => {
      renderScreenTree();
      return screen.findByRole("table", { name: "Members" });
    })();
    await within(table).findByText("root");
    expect(within(table).queryByText("leaf")).toBeNull();
    await userEvent.click(within(table).getByRole("button", { name: "Expand" }));
    expect(within(table).getByText("leaf")).toBeTruthy();
    await userEvent.click(within(table).getByRole("button", { name: "Collapse" }));
    expect(within(table).queryByText("leaf")).toBeNull();
  });

  it("reorders a tree row among the rows of its parent only", async () => {
    const row = (id: number, pid: number) => ({ id, pid, username: `user${id}`, status: "enable", create_time: 0 });
    listed = { list: [row(1, 0), row(2, 1), row(3, 1), row(4, 0)], total: 4 };
    renderScreen({ ...members, title: msg`Members`, tree: true });
    const table = await screen.findByRole("table", { name: "Members" });
    await within(table).findByText("user1");
    await userEvent.click(within(table).getByRole("button", { name: "Expand" }));
    const sorted = () => calls().filter((c) => c.url === "/admin/user/user/sortable").map((c) => c.data);
    const press = (id: number, key: string) => fireEvent.keyDown(within(table).getByRole("button", { name: `Move row ${id} (arrow keys)` }), { key });
    // A child moves within its parent; past its last sibling it stays (no row of another parent).
    press(2, "ArrowDown");
    await waitFor(() => expect(sorted()).toEqual([{ id: 2, targetId: 3 }]));
    press(3, "ArrowDown");
    press(2, "ArrowUp");
    // A root passes over the open rows of the root before it.
    press(4, "ArrowUp");
    await waitFor(() => expect(sorted()).toEqual([{ id: 2, targetId: 3 }, { id: 4, targetId: 1 }]));
  });
});

function renderScreenTree() {
  return renderScreen({ ...members, title: msg`Members`, tree: true, sortable: false });
}

describe("paging past the end", () => {
  it("goes back to the last page when the page it is on no longer exists", async () => {
    const table = await shown();
    await within(table).findByText("user1");
    for (let i = 0; i < 4; i++) await userEvent.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(lastList()).toMatchObject({ page: 5 }));
    // Rows of page 5 were deleted elsewhere: the server now has 35 rows, and page 5 is empty.
    listed = { list: [], total: 35 };
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }));
    await waitFor(() => expect(lastList()).toMatchObject({ page: 4 }));
    expect(await screen.findByText("Page 4 of 4")).toBeTruthy();
  });
});
