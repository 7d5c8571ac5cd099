import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Wallet } from "lucide-react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import type { CrudDefinition, CrudRow } from "../../src/client/admin/crud/types.ts";
import { yuanToCents } from "../../src/client/admin/user/AdjustDialog.tsx";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";
import { BASE, envelope, memberRows, members, renderScreen } from "./crud-example.tsx";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

function Probe({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  return (
    <div>
      <p>Adjusting {String(row.username)}</p>
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/** The example definition with a row action behind another screen's rule. */
const withAction: CrudDefinition = {
  ...members,
  rowActions: [{ key: "money", label: msg`Adjust balance`, icon: Wallet, action: "user/moneyLog/add", component: Probe }],
};

const grantNodes = (nodes: Record<string, string[]>) => useNavTabs.setState({ authNode: new Map(Object.entries(nodes)) });

beforeEach(() => {
  vi.mocked(request).mockImplementation((async () => envelope({ list: memberRows(3), total: 3, remark: "" })) as never);
});
afterEach(() => vi.mocked(request).mockReset());

describe("row actions of a definition", () => {
  it("shows a row action only to an admin holding its rule, and opens its component with the row in a dialog", async () => {
    grantNodes({ [BASE]: [`${BASE}/index`], "/admin/user/moneyLog": ["/admin/user/moneyLog/index"] });
    const { unmount } = renderScreen(withAction);
    const table = await screen.findByRole("table", { name: "Members" });
    await within(table).findByText("user2");
    expect(screen.queryByRole("button", { name: /^Adjust balance/ })).toBeNull();
    unmount();

    grantNodes({ [BASE]: [`${BASE}/index`], "/admin/user/moneyLog": ["/admin/user/moneyLog/index", "/admin/user/moneyLog/add"] });
    renderScreen(withAction);
    const again = await screen.findByRole("table", { name: "Members" });
    await within(again).findByText("user2");
    expect(within(again).getAllByRole("columnheader").at(-1)!.textContent).toBe("Actions");
    await userEvent.click(screen.getByRole("button", { name: "Adjust balance · 2" }));
    const dialog = await screen.findByRole("dialog", { name: "Adjust balance" });
    expect(within(dialog).getByText("Adjusting user2")).toBeTruthy();
    await userEvent.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("reads an amount in yuan as whole cents, refusing anything else", () => {
    expect(yuanToCents("12.34")).toBe(1234);
    expect(yuanToCents("-5.5")).toBe(-550);
    expect(yuanToCents("+0.05")).toBe(5);
    expect(yuanToCents(" 7 ")).toBe(700);
    for (const bad of ["", "1.234", "1e3", "abc", "--1", "1,5", "0x10", "１２"]) expect(yuanToCents(bad), bad).toBeNull();
  });
});
