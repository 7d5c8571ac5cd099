import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import { orderedFields } from "../../src/client/admin/crud/CrudScreen.tsx";
import { useAdminInfo } from "../../src/client/stores/adminInfo.ts";
import { STORE_LIST_VIEWS } from "../../src/client/stores/keys.ts";
import { listViewKey, useListViews } from "../../src/client/stores/listViews.ts";
import { DataTable, type ColumnSizingState, type DataColumn } from "../../src/client/ui/DataTable.tsx";
import { SMALL_SCREEN } from "../../src/client/ui/useMediaQuery.ts";
import { envelope, grant, memberRows, renderScreen } from "./crud-example.tsx";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => {
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) =>
    envelope(config.url?.endsWith("/index") ? { list: memberRows(3), total: 3, remark: "" } : null)) as never);
  grant("edit");
});
afterEach(() => {
  vi.mocked(request).mockReset();
  vi.unstubAllGlobals();
  useAdminInfo.setState({ id: 0 });
});

const stored = () => JSON.parse(localStorage.getItem(STORE_LIST_VIEWS) ?? "{}").state.views;
const headers = (table: HTMLElement) => within(table).getAllByRole("columnheader").map((h) => h.textContent);

describe("the list views store", () => {
  it("keeps columns, order, widths and page size per admin and screen, and resets the columns only", () => {
    const { save, resetColumns } = useListViews.getState();
    save(listViewKey(7, "user/user"), { order: ["username", "id"], widths: { username: 240 }, columns: { mobile: true } });
    save(listViewKey(7, "user/user"), { limit: 50 });
    save(listViewKey(8, "user/user"), { order: ["id"] });
    save(listViewKey(7, "exam/question"), { widths: { title: 400 } });
    expect(stored()["7:user/user"]).toEqual({ order: ["username", "id"], widths: { username: 240 }, columns: { mobile: true }, limit: 50 });
    expect(stored()["8:user/user"]).toEqual({ order: ["id"] });

    resetColumns("7:user/user");
    resetColumns("7:exam/question");
    expect(stored()).toEqual({ "7:user/user": { limit: 50 }, "8:user/user": { order: ["id"] } });
  });

  it("puts fields a list was left with first, drops unknown ones and adds new ones in their place", () => {
    expect(orderedFields(["id", "username", "mobile", "status"], ["status", "gone", "id", "status", 3])).toEqual(["status", "id", "username", "mobile"]);
    expect(orderedFields(["id", "username"], "nonsense")).toEqual(["id", "username"]);
  });
});

interface Item {
  id: number;
  name: string;
  score: number;
}
const items: Item[] = [
  { id: 1, name: "Ann", score: 90 },
  { id: 2, name: "Bo", score: 75 },
];
const columns: DataColumn<Item>[] = [
  { id: "name", header: "Name", card: "title", cell: (i) => i.name },
  { id: "score", header: "Score", cell: (i) => i.score },
  { id: "actions", header: "Actions", resizable: false, card: "actions", cell: (i) => <button type="button">Edit {i.id}</button> },
];
const table = (extra: { order?: string[]; sizing?: ColumnSizingState; onSize?: (next: ColumnSizingState, done: boolean) => void; cards?: boolean }): ReactNode => (
  <I18nProvider i18n={i18n}>
    <DataTable
      caption="Scores"
      data={items}
      columns={columns}
      rowKey={(i) => i.id}
      columnOrder={extra.order}
      columnSizing={extra.sizing && { state: extra.sizing, onChange: extra.onSize ?? (() => {}) }}
      cards={extra.cards}
    />
  </I18nProvider>
);

describe("DataTable column order and widths", () => {
  it("draws the columns in the order given, the ones not named after them", () => {
    render(table({ order: ["score", "name"] }));
    const grid = screen.getByRole("table", { name: "Scores" });
    expect(headers(grid)).toEqual(["Score", "Name", "Actions"]);
    expect([...within(grid).getAllByRole("row")[1]!.children].map((c) => c.textContent)).toEqual(["90", "Ann", "Edit 1"]);
  });

  it("gives a sized column its width, and a resize handle to every resizable header: dragged or moved by the arrow keys", () => {
    const onSize = vi.fn();
    render(table({ sizing: { name: 200 }, onSize }));
    const grid = screen.getByRole("table", { name: "Scores" });
    const name = within(grid).getByRole("columnheader", { name: "Name" });
    expect(name.style.width).toBe("200px");
    // The content box is the width less the cell's padding: a narrower column really is narrower.
    const cell = within(grid).getAllByRole("row")[1]!.children[0] as HTMLElement;
    expect((cell.firstElementChild as HTMLElement).style.width).toBe("176px");
    expect(within(grid).getByRole("columnheader", { name: "Score" }).style.width).toBe("");

    const handles = within(grid).getAllByRole("separator");
    expect(handles.map((h) => h.getAttribute("aria-label"))).toEqual(["Column width: Name", "Column width: Score"]);
    expect(handles[0]).toHaveAttribute("aria-valuenow", "200");
    fireEvent.keyDown(handles[0]!, { key: "ArrowRight" });
    expect(onSize).toHaveBeenLastCalledWith({ name: 216 }, true);
    fireEvent.keyDown(handles[0]!, { key: "ArrowLeft" });
    expect(onSize).toHaveBeenLastCalledWith({ name: 184 }, true);

    onSize.mockClear();
    fireEvent.pointerDown(handles[0]!, { button: 0, clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(handles[0]!, { clientX: 160, pointerId: 1 });
    fireEvent.pointerMove(handles[0]!, { clientX: -500, pointerId: 1 });
    fireEvent.pointerUp(handles[0]!, { clientX: -500, pointerId: 1 });
    expect(onSize.mock.calls).toEqual([
      [{ name: 260 }, false],
      [{ name: 48 }, false],
      [{ name: 48 }, true],
    ]);
  });

  it("has no handles without sizing, and cards (a phone) have neither handles nor widths", () => {
    const { unmount } = render(table({}));
    expect(screen.queryByRole("separator")).toBeNull();
    unmount();
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query === SMALL_SCREEN, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));
    render(table({ order: ["score", "name"], sizing: { name: 120, score: 300 }, cards: true }));
    const card = screen.getAllByRole("listitem")[0]!;
    expect(card.querySelector("[style*='width']")).toBeNull();
    expect(screen.queryByRole("separator")).toBeNull();
    expect(within(card).getByText("Score").closest("dl")).toBeTruthy();
  });
});

describe("the list screen's column settings", () => {
  it("moves columns up and down from the column menu (focus stays on the button), keeps order and widths for the next visit, resets them", async () => {
    useAdminInfo.setState({ id: 7 });
    const first = renderScreen();
    let grid = await screen.findByRole("table", { name: "Members" });
    await within(grid).findByText("user1");
    await userEvent.click(screen.getByRole("button", { name: "Columns" }));
    const down = screen.getByRole("button", { name: "Move ID down" });
    await userEvent.click(down);
    expect(headers(grid)).toEqual(["Username", "ID", "Status", "Created", "Actions"]);
    expect(screen.getByRole("button", { name: "Move ID down" })).toHaveFocus();
    expect(screen.getByRole("button", { name: "Move Username up" })).toBeDisabled();
    await userEvent.keyboard("{Enter}{Enter}");
    // Past the hidden Mobile (no change to see), then past Status.
    expect(headers(grid)).toEqual(["Username", "Status", "ID", "Created", "Actions"]);
    // At the bottom the down button is disabled: focus goes to the up button.
    await userEvent.keyboard("{Enter}");
    expect(screen.getByRole("button", { name: "Move ID down" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Move ID up" })).toHaveFocus();
    expect(headers(grid)).toEqual(["Username", "Status", "Created", "ID", "Actions"]);

    // A column never resized starts from its drawn width (none in this DOM without layout: the narrowest, 48 px).
    fireEvent.keyDown(within(grid).getByRole("separator", { name: "Column width: Username" }), { key: "ArrowRight" });
    expect(stored()["7:user/user"].order).toEqual(["username", "mobile", "status", "create_time", "id"]);
    expect(stored()["7:user/user"].widths).toEqual({ username: 48 });
    // The actions column has no handle.
    expect(within(grid).getAllByRole("separator")).toHaveLength(4);
    first.unmount();

    // The next visit: as left.
    renderScreen();
    grid = await screen.findByRole("table", { name: "Members" });
    expect(headers(grid)).toEqual(["Username", "Status", "Created", "ID", "Actions"]);
    expect(within(grid).getByRole("columnheader", { name: /Username/ }).style.width).toBe("48px");

    await userEvent.click(screen.getByRole("button", { name: "Columns" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Mobile" }));
    await userEvent.click(screen.getByRole("button", { name: "Reset columns" }));
    expect(headers(grid)).toEqual(["ID", "Username", "Status", "Created", "Actions"]);
    expect(within(grid).getByRole("columnheader", { name: /Username/ }).style.width).toBe("");
    expect(stored()["7:user/user"]).toBeUndefined();
    cleanup();
  });
});
