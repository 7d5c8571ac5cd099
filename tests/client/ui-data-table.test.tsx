import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { DataTable, type DataColumn, type RowSelectionState, type SortingState } from "../../src/client/ui/DataTable.tsx";

interface Item {
  id: number;
  name: string;
  score: number;
  children?: Item[];
}

const items: Item[] = [
  { id: 1, name: "Ann", score: 90 },
  { id: 2, name: "Bo", score: 75 },
];

const columns: DataColumn<Item>[] = [
  { id: "name", header: "Name", rowHeader: true, value: (i) => i.name, sortable: true, cell: (i) => i.name },
  { id: "score", header: "Score", headerClassName: "text-right", className: (i) => (i.score >= 80 ? "good" : "fair"), testId: "score", value: (i) => i.score, sortable: true, cell: (i) => i.score },
];

const texts = (row: HTMLElement) => [...row.children].map((c) => c.textContent);

describe("DataTable", () => {
  it("draws a framed table named by its caption, a header row and one row per item", () => {
    render(<DataTable caption="Scores" data={items} columns={columns} rowKey={(i) => i.id} />);
    const region = screen.getByRole("region", { name: "Scores" });
    const table = within(region).getByRole("table", { name: "Scores" });
    const rows = within(table).getAllByRole("row");
    expect(rows.map(texts)).toEqual([
      ["Name", "Score"],
      ["Ann", "90"],
      ["Bo", "75"],
    ]);
    // The first column heads its rows; cells take their column's class and test id.
    expect(within(rows[1]!).getByRole("rowheader").textContent).toBe("Ann");
    expect(screen.getAllByTestId("score").map((c) => c.className)).toEqual([expect.stringMatching(/ good$/), expect.stringMatching(/ fair$/)]);
    expect(within(table).getByRole("columnheader", { name: "Score" }).className).toMatch(/ text-right$/);
    // No sorting given: headers are text, not buttons.
    expect(within(table).queryByRole("button")).toBeNull();
  });

  it("leaves the frame out and the header row when asked", () => {
    render(<DataTable frame={false} head={false} caption="Numbers" data={items} columns={columns} rowKey={(i) => i.id} />);
    expect(screen.queryByRole("region")).toBeNull();
    expect(screen.getByRole("table", { name: "Numbers" })).toBeTruthy();
    expect(screen.queryAllByRole("columnheader")).toHaveLength(0);
    expect(screen.getAllByRole("row")).toHaveLength(2);
  });

  it("shows a status in place of the rows, the empty message without rows, or skeleton rows", () => {
    const { rerender } = render(<DataTable caption="Scores" data={items} columns={columns} rowKey={(i) => i.id} status={{ content: "Loading", className: "py-8" }} />);
    const only = () => screen.getAllByRole("row").slice(1);
    expect(only().map(texts)).toEqual([["Loading"]]);
    expect(only()[0]!.querySelector("td")!.getAttribute("colspan")).toBe("2");
    expect(only()[0]!.querySelector("td")!.className).toBe("py-8");
    rerender(<DataTable caption="Scores" data={[]} columns={columns} rowKey={(i) => i.id} empty={{ content: "Nothing yet" }} />);
    expect(only().map(texts)).toEqual([["Nothing yet"]]);
    rerender(<DataTable caption="Scores" data={[]} columns={columns} rowKey={(i) => i.id} empty={{ content: "Nothing yet" }} skeleton={{ rows: 3, testId: "bar" }} />);
    expect(screen.getAllByTestId("bar")).toHaveLength(3);
    expect(screen.queryByText("Nothing yet")).toBeNull();
  });

  it("spells out the roles of a table whose parts CSS lays out as blocks", () => {
    render(<DataTable caption="Scores" explicitRoles headClassName="h" bodyClassName="b" data={items} columns={columns} rowKey={(i) => i.id} rowProps={() => ({ className: "card" })} />);
    const table = screen.getByRole("table", { name: "Scores" });
    expect(table.getAttribute("role")).toBe("table");
    expect([...table.querySelectorAll("thead, tbody")].map((g) => [g.getAttribute("role"), g.className.split(" ").at(-1)])).toEqual([
      ["rowgroup", "h"],
      ["rowgroup", "b"],
    ]);
    expect([...table.querySelectorAll("tr")].map((r) => r.getAttribute("role"))).toEqual(["row", "row", "row"]);
    expect([...table.querySelectorAll("tbody tr")].every((r) => r.className.endsWith(" card"))).toBe(true);
  });

  it("sorts through the caller: header buttons cycle the state and mark the column", async () => {
    const seen: SortingState[] = [];
    function Harness() {
      const [state, setState] = useState<SortingState>([]);
      return (
        <DataTable
          caption="Scores"
          data={items}
          columns={[...columns, { id: "plain", header: "Plain", cell: () => "" }]}
          rowKey={(i) => i.id}
          sorting={{
            state,
            onChange: (next) => {
              seen.push(next);
              setState(next);
            },
          }}
        />
      );
    }
    render(<Harness />);
    expect(screen.getByRole("columnheader", { name: "Plain" }).querySelector("button")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Name" }));
    expect(screen.getByRole("columnheader", { name: "Name" }).getAttribute("aria-sort")).toBe("ascending");
    await userEvent.click(screen.getByRole("button", { name: "Name" }));
    expect(screen.getByRole("columnheader", { name: "Name" }).getAttribute("aria-sort")).toBe("descending");
    // A number column starts descending (TanStack's first direction for non-text values).
    await userEvent.click(screen.getByRole("button", { name: "Score" }));
    expect(seen).toEqual([[{ id: "name", desc: false }], [{ id: "name", desc: true }], [{ id: "score", desc: true }]]);
    expect(screen.getByRole("columnheader", { name: "Name" }).hasAttribute("aria-sort")).toBe(false);
  });

  it("selects rows with a first column of checkboxes, one by one or all at once", async () => {
    const seen: RowSelectionState[] = [];
    function Harness() {
      const [state, setState] = useState<RowSelectionState>({});
      return (
        <DataTable
          caption="Scores"
          data={items}
          columns={columns}
          rowKey={(i) => i.id}
          selection={{
            state,
            onChange: (next) => {
              seen.push(next);
              setState(next);
            },
            label: (i) => `Pick ${i.name}`,
            allLabel: "Pick all",
          }}
        />
      );
    }
    render(<Harness />);
    await userEvent.click(screen.getByRole("checkbox", { name: "Pick Bo" }));
    expect(seen.at(-1)).toEqual({ "2": true });
    expect(screen.getByRole("checkbox", { name: "Pick Bo" }).closest("tr")!.className).toMatch(/bg-primary\/5/);
    await userEvent.click(screen.getByRole("checkbox", { name: "Pick all" }));
    expect(seen.at(-1)).toEqual({ "1": true, "2": true });
    expect((screen.getByRole("checkbox", { name: "Pick all" }) as HTMLInputElement).checked).toBe(true);
  });

  it("nests sub-rows, shown once their row is expanded", async () => {
    const tree: Item[] = [{ id: 1, name: "Root", score: 1, children: [{ id: 2, name: "Leaf", score: 2 }] }];
    render(
      <DataTable
        caption="Tree"
        data={tree}
        rowKey={(i) => i.id}
        subRows={(i) => i.children}
        columns={[
          {
            id: "name",
            header: "Name",
            cell: (i, { row, index }) => (
              <>
                {index === 0 && row.getCanExpand() && (
                  <button type="button" onClick={row.getToggleExpandedHandler()}>
                    Open
                  </button>
                )}
                {`${i.name}@${row.depth}`}
              </>
            ),
          },
        ]}
      />,
    );
    expect(screen.queryByText("Leaf@1")).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Open" }));
    expect(screen.getByText("Leaf@1")).toBeTruthy();
  });
});
