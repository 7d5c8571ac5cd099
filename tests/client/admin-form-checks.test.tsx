import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import { PaperComposer } from "../../src/client/admin/exam/PaperComposer.tsx";
import { RoomOverrides } from "../../src/client/admin/exam/RoomOverrides.tsx";
import ModuleMarket from "../../src/client/admin/market/ModuleMarket.tsx";
import { TerminalPanel } from "../../src/client/admin/terminal/TerminalPanel.tsx";
import { useTerminal } from "../../src/client/admin/terminal/store.ts";
import type { ModuleRow } from "../../src/shared/admin/modules.ts";
import { envelope } from "./crud-example.tsx";

// The back office's own forms check what is typed with the shared request schemas before sending:
// a refusal is the server's words in the same place, and a body that passes is the one sent before.

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(() => vi.mocked(request).mockReset());

const calls = (url: string) =>
  vi
    .mocked(request)
    .mock.calls.map((c) => c[0] as AxiosRequestConfig)
    .filter((c) => c.url === url);

function wrap(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>{node}</MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe("the room's overrides form", () => {
  it("refuses extra attempts above the most in the server's words without sending, and sends the override once they fit", async () => {
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
      if (config.url === "/admin/exam/room/overrides") return envelope({ overrides: [] });
      if (config.url === "/admin/user/user/index") return envelope({ list: [{ id: 8, username: "ann" }], total: 1 });
      return envelope({ id: 4 });
    }) as never);
    wrap(<RoomOverrides row={{ id: 7 }} onDone={vi.fn()} />);
    const user = userEvent.setup();
    await screen.findByTestId("overrides-none");
    await user.type(screen.getByRole("combobox", { name: "Member" }), "ann");
    await user.click(await screen.findByRole("option", { name: "ann" }));
    const attempts = screen.getByRole("spinbutton", { name: "Extra attempts" });
    await user.clear(attempts);
    await user.type(attempts, "101");
    await user.click(screen.getByRole("button", { name: "Add" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Enter the extra attempts, from 0 to 100");
    expect(calls("/admin/exam/room/overrideAdd")).toHaveLength(0);

    await user.clear(attempts);
    await user.type(attempts, "3");
    await user.click(screen.getByRole("button", { name: "Add" }));
    await waitFor(() => expect(calls("/admin/exam/room/overrideAdd")).toHaveLength(1));
    expect(calls("/admin/exam/room/overrideAdd")[0]!.data).toEqual({ id: 7, user_id: 8, user_group_id: null, extra_minutes: 0, extra_attempts: 3 });
    // Added: the form starts again, for a member.
    await waitFor(() => expect(attempts).toHaveValue(0));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});

describe("the paper composer's figures", () => {
  it("refuses a score that is not a number beside the score, and a count above 500 beside the count, without sending", async () => {
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
      if (config.url === "/admin/exam/paperRow/index") return envelope({ list: [], total: 0 });
      return envelope({ id: 1 });
    }) as never);
    wrap(<PaperComposer row={{ id: 5, title: "Driving theory", total_score: 10 }} onDone={vi.fn()} />);
    const user = userEvent.setup();
    await screen.findByTestId("composer-rows");
    const score = screen.getByRole("textbox", { name: "Score" });
    await user.clear(score);
    await user.type(score, "two");
    await user.click(screen.getByRole("button", { name: "Add row" }));
    expect(await screen.findByText("Enter a score from 0 to 100000, with at most 2 decimals")).toBeInTheDocument();
    expect(score).toHaveAttribute("aria-invalid", "true");

    await user.click(screen.getByRole("radio", { name: "Draw rule" }));
    const count = screen.getByRole("textbox", { name: "Count" });
    await user.clear(count);
    await user.type(count, "501");
    await user.clear(screen.getByRole("textbox", { name: "Score each" }));
    await user.type(screen.getByRole("textbox", { name: "Score each" }), "1");
    await user.click(screen.getByRole("button", { name: "Add row" }));
    expect(await screen.findByText("Enter a count from 1 to 500")).toBeInTheDocument();
    expect(screen.queryByText("Enter a score from 0 to 100000, with at most 2 decimals")).toBeNull();
    expect(calls("/admin/exam/paperRow/add")).toHaveLength(0);
  });
});

const market: ModuleRow = {
  name: "checkin",
  title: "签到",
  titleEn: "Check-in",
  version: "1.0.0",
  author: "",
  description: "",
  descriptionEn: "",
  icon: "",
  source: "installed",
  status: "enabled",
  installedVersion: "1.0.0",
  requires: { modules: [] },
  tables: [],
  settings: [{ key: "points", type: "int", title: "积分", titleEn: "Points a day", default: 5, min: 1, max: 50 }],
  values: { points: 5 },
  hasDemo: false,
};

describe("a module's settings", () => {
  it("sends the values as whole numbers, and refuses one outside its bounds in the server's words", async () => {
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
      if (config.url === "/admin/moduleStore/moduleStore/index") return envelope({ list: [market], dir: "/modules" });
      return envelope({ values: { points: 7 } });
    }) as never);
    wrap(<ModuleMarket />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Settings" }));
    const dialog = await screen.findByRole("dialog", { name: "Settings of Check-in" });
    const points = within(dialog).getByRole("spinbutton", { name: "Points a day" });
    expect(points).toHaveValue(5);
    expect(points).toHaveAttribute("min", "1");
    expect(points).toHaveAttribute("max", "50");

    await user.clear(points);
    await user.type(points, "60");
    // Submitted past the input's own bounds (a browser would stop at them first).
    fireEvent.submit(dialog.querySelector("form")!);
    expect(await within(dialog).findByText('The setting "points" must be between 1 and 50')).toBeInTheDocument();
    expect(calls("/admin/moduleStore/moduleStore/settings")).toHaveLength(0);

    await user.clear(points);
    await user.type(points, "7");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls("/admin/moduleStore/moduleStore/settings")).toHaveLength(1));
    expect(calls("/admin/moduleStore/moduleStore/settings")[0]!.data).toEqual({ name: "checkin", values: { points: 7 } });
  });
});

describe("the terminal's settings", () => {
  it("says the port is wrong as it is typed and keeps Save off, and saves a port in bounds", async () => {
    vi.mocked(request).mockResolvedValue(envelope({ npmPackageManager: "pnpm", installServicePort: 8100 }) as never);
    act(() => void useTerminal.setState({ showConfig: true, port: 8000 }));
    wrap(<TerminalPanel />);
    const user = userEvent.setup();
    const dialog = await screen.findByRole("dialog", { name: "Terminal settings" });
    const port = within(dialog).getByRole("textbox", { name: "Install service port" });
    expect(port).toHaveValue("8000");
    const save = within(dialog).getByRole("button", { name: "Save" });
    expect(save).toBeEnabled();

    for (const wrong of ["0", "65536", "8e3"]) {
      await user.clear(port);
      await user.type(port, wrong);
      expect(await within(dialog).findByText("Enter a port from 1 to 65535")).toBeInTheDocument();
      expect(save).toBeDisabled();
    }
    await user.clear(port);
    await user.type(port, "8100");
    await waitFor(() => expect(save).toBeEnabled());
    expect(within(dialog).queryByText("Enter a port from 1 to 65535")).toBeNull();
    await user.click(save);
    await waitFor(() => expect(calls("/admin/ajax/changeTerminalConfig")).toHaveLength(1));
    expect(calls("/admin/ajax/changeTerminalConfig")[0]!.data).toEqual({ port: 8100 });
    await waitFor(() => expect(useTerminal.getState().showConfig).toBe(false));
    expect(useTerminal.getState().port).toBe(8100);
  });
});
