import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { useState } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import type { CrudRow } from "../../src/client/admin/crud/types.ts";
import { DataTable, type DataColumn, type RowSelectionState } from "../../src/client/ui/DataTable.tsx";
import { SMALL_SCREEN } from "../../src/client/ui/useMediaQuery.ts";
import { envelope, grant, memberRows, members, paramsOf, renderScreen } from "./crud-example.tsx";

/**
 * Lists on a phone: under the small-screen breakpoint a DataTable asked for `cards` draws each
 * row as a card (title, muted subtitle, labelled values, the row's buttons at its foot) and the
 * back office's list screens ask for it.
 */

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

/** matchMedia answering the small-screen query as given (jsdom has none). */
function screenIs(small: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query === SMALL_SCREEN ? small : false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(() => vi.unstubAllGlobals());

interface Item {
  id: number;
  name: string;
  score: number;
  children?: Item[];
}

const items: Item[] = [
  { id: 1, name: "Ann", score: 90 },
  { id: 2, name: "Bo", score: 75, children: [{ id: 3, name: "Cy", score: 60 }] },
];

const columns: DataColumn<Item>[] = [
  { id: "id", header: "ID", card: "subtitle", cell: (i) => i.id },
  {
    id: "name",
    header: "Name",
    card: "title",
    cell: (i, { row, index, card }) => (
      <>
        {index === 0 && row.getCanExpand() && (
          <button type="button" onClick={row.getToggleExpandedHandler()}>
            Open {i.name}
          </button>
        )}
        {`${i.name}${card ? " (card)" : ""}`}
      </>
    ),
  },
  { id: "score", header: "Score", cell: (i) => i.score },
  { id: "secret", header: "Secret", card: "hidden", cell: () => "s3cret" },
  { id: "act", header: "Actions", card: "actions", cell: (i) => <button type="button">Edit {i.name}</button> },
];

function Harness({ cards = true }: { cards?: boolean }) {
  const [state, setState] = useState<RowSelectionState>({});
  return (
    <DataTable
      caption="Scores"
      cards={cards}
      data={items}
      columns={columns}
      rowKey={(i) => i.id}
      subRows={(i) => i.children}
      selection={{ state, onChange: setState, label: (i) => `Pick ${i.name}`, allLabel: "Pick all" }}
    />
  );
}

describe("DataTable as cards", () => {
  it("keeps the table on a wide screen, and without `cards` on a small one", () => {
    screenIs(false);
    const { unmount } = render(<Harness />);
    expect(screen.getByRole("table", { name: "Scores" })).toBeTruthy();
    unmount();
    screenIs(true);
    render(<Harness cards={false} />);
    expect(screen.getByRole("table", { name: "Scores" })).toBeTruthy();
  });

  it("draws each row as a card: title first, the subtitle under it, the others as label and value, the actions at the foot", () => {
    screenIs(true);
    render(<Harness />);
    expect(screen.queryByRole("table")).toBeNull();
    const list = within(screen.getByRole("region", { name: "Scores" })).getByRole("list", { name: "Scores" });
    const cards = within(list).getAllByRole("listitem");
    expect(cards).toHaveLength(2);
    const ann = cards[0]!;
    // The title cell is told it is in a card and is the card's first (index 0).
    expect(within(ann).getByText("Ann (card)")).toBeTruthy();
    expect(ann.textContent!.indexOf("Ann (card)")).toBeLessThan(ann.textContent!.indexOf("ID"));
    expect(within(ann).getByText("ID").nextElementSibling!.textContent).toBe("1");
    const score = within(ann).getByText("Score");
    expect(score.tagName).toBe("DT");
    expect(score.nextElementSibling!.textContent).toBe("90");
    expect(within(ann).queryByText("s3cret")).toBeNull();
    expect(within(ann).queryByText("Actions")).toBeNull();
    const edit = within(ann).getByRole("button", { name: "Edit Ann" });
    expect(ann.lastElementChild!.contains(edit)).toBe(true);
  });

  it("selects cards one by one or all at once, and nests a tree's rows as indented cards", async () => {
    screenIs(true);
    render(<Harness />);
    const region = screen.getByRole("region", { name: "Scores" });
    await userEvent.click(within(region).getByRole("checkbox", { name: "Pick Bo" }));
    expect((within(region).getByRole("checkbox", { name: "Pick Bo" }) as HTMLInputElement).checked).toBe(true);
    expect(within(region).getByRole("checkbox", { name: "Pick Bo" }).closest("li")!.className).toMatch(/bg-primary\/5/);
    expect((within(region).getByRole("checkbox", { name: "Pick Ann" }) as HTMLInputElement).checked).toBe(false);
    // The select-all checkbox has its label written out above the cards.
    await userEvent.click(within(region).getByLabelText("Pick all"));
    expect((within(region).getByRole("checkbox", { name: "Pick Ann" }) as HTMLInputElement).checked).toBe(true);

    expect(within(region).queryByText("Cy (card)")).toBeNull();
    await userEvent.click(within(region).getByRole("button", { name: "Open Bo" }));
    const leaf = within(region).getByText("Cy (card)").closest("li")!;
    expect(leaf.style.marginInlineStart).toBe("1rem");
    expect(within(region).getByText("Bo (card)").closest("li")!.style.marginInlineStart).toBe("");
  });
});

describe("a list screen on a phone", () => {
  let listed: { list: CrudRow[]; total: number };
  const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);

  beforeEach(() => {
    screenIs(true);
    listed = { list: memberRows(3), total: 3 };
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
      if (config.url?.endsWith("/index")) return envelope({ ...listed, remark: "" });
      if (config.url?.endsWith("/edit")) return envelope({ row: { id: 2, username: "user2", status: "enable" } });
      return envelope(null);
    }) as never);
    grant("add", "edit", "del", "sortable");
  });
  afterEach(() => vi.mocked(request).mockReset());

  it("shows rows as cards headed by the first text column, with the row's buttons and a working selection", async () => {
    renderScreen();
    const list = await screen.findByRole("list", { name: "Members" });
    await within(list).findByText("user1");
    const cards = within(list).getAllByRole("listitem");
    expect(cards).toHaveLength(3);
    const second = cards[1]!;
    // Username heads the card (the id is not text), the id goes on the line under it.
    expect(second.textContent!.startsWith("user2")).toBe(true);
    expect(within(second).getByText("ID").nextElementSibling!.textContent).toBe("2");
    expect(within(second).getByText("Status", { selector: "dt" }).nextElementSibling!.textContent).toBe("Disabled");
    // A column the admin hid stays out of the card as it does out of the table.
    expect(within(second).queryByText("13800000002")).toBeNull();

    // The row's buttons are in the card; edit opens the form.
    await userEvent.click(within(second).getByRole("button", { name: "Edit row 2" }));
    expect(await screen.findByRole("dialog", { name: /Edit/ })).toBeTruthy();
    expect(calls().some((c) => c.url === "/admin/user/user/edit")).toBe(true);
  });

  it("deletes the cards selected", async () => {
    renderScreen();
    const list = await screen.findByRole("list", { name: "Members" });
    await within(list).findByText("user1");
    const del = screen.getByRole("button", { name: "Delete" });
    expect((del as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(within(list).getByRole("checkbox", { name: "Select row 1" }));
    await userEvent.click(within(list).getByRole("checkbox", { name: "Select row 3" }));
    await userEvent.click(del);
    const dialog = await screen.findByRole("alertdialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(calls().find((c) => c.url === "/admin/user/user/del")).toBeTruthy());
    expect(paramsOf(calls().find((c) => c.url === "/admin/user/user/del")!)).toEqual({ ids: [1, 3] });
  });

  it("heads a card with the column the declaration names", async () => {
    renderScreen({ ...members, title: msg`Members`, columns: members.columns.map((c) => (c.field === "status" ? { ...c, render: undefined, card: "title" } : c)) });
    const list = await screen.findByRole("list", { name: "Members" });
    await within(list).findByText("user1");
    const first = within(list).getAllByRole("listitem")[0]!;
    expect(first.textContent!.startsWith("enable")).toBe(true);
    expect(within(first).getByText("Username").nextElementSibling!.textContent).toBe("user1");
  });
});
