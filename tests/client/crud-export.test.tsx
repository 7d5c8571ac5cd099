import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { notifyRequestError, request } from "../../src/client/api/index.ts";
import { captureDownloads, envelope, grant, memberRows, paramsOf, renderScreen } from "./crud-example.tsx";

// Only the request function (and the error toast) are replaced: the screen, TanStack Query and Radix's menu run for real.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn(), notifyRequestError: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);
const exportCalls = () => calls().filter((c) => c.url === "/admin/user/user/exportList");
/** What the server answers an export: a file, or (a refusal) the envelope as JSON. */
let exported: () => { data: Blob; headers: Record<string, string>; status: number };
let clicked: { name: string; href: string }[] = [];

beforeEach(() => {
  exported = () => ({ data: new Blob(["\ufeffID,Username\r\n1,user1\r\n"], { type: "text/csv; charset=utf-8" }), headers: { "content-disposition": 'attachment; filename="user-user-2026-11-28.csv"' }, status: 200 });
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    if (config.url?.endsWith("/exportList")) return exported();
    if (config.url?.endsWith("/index")) return envelope({ list: memberRows(10), total: 45, remark: "" });
    return envelope(null);
  }) as never);
  grant("add", "edit", "del");
  clicked = captureDownloads();
});

afterEach(() => {
  vi.mocked(request).mockReset();
  vi.mocked(notifyRequestError).mockReset();
  vi.restoreAllMocks();
});

async function openExport() {
  renderScreen();
  const table = await screen.findByRole("table", { name: "Members" });
  await within(table).findByText("user1");
  await userEvent.click(screen.getByRole("button", { name: "Export" }));
  return screen.findByRole("menu");
}

describe("the list's export button", () => {
  it("offers CSV and Excel and downloads the list as searched and sorted, every page, under the server's file name", async () => {
    renderScreen();
    const table = await screen.findByRole("table", { name: "Members" });
    await within(table).findByText("user1");
    // The admin searches and sorts first: the export takes the search and order, not the page or its size.
    const quick = screen.getByRole("searchbox", { name: "ID, username, nickname" });
    await userEvent.type(quick, "ann{Enter}");
    await userEvent.click(within(table).getByRole("button", { name: /Username/ }));
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    const menu = await screen.findByRole("menu");
    expect(within(menu).getAllByRole("menuitem").map((i) => i.textContent)).toEqual(["Export as .csv", "Export as .xlsx"]);
    await userEvent.click(within(menu).getByRole("menuitem", { name: "Export as .csv" }));
    await waitFor(() => expect(clicked).toEqual([{ name: "user-user-2026-11-28.csv", href: "blob:export" }]));
    const sent = exportCalls().at(-1)!;
    expect(sent.responseType).toBe("blob");
    expect(paramsOf(sent)).toEqual({ format: "csv", quickSearch: "ann", order: "username,asc", tz: Intl.DateTimeFormat().resolvedOptions().timeZone });

    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    await userEvent.click(within(await screen.findByRole("menu")).getByRole("menuitem", { name: "Export as .xlsx" }));
    await waitFor(() => expect(exportCalls()).toHaveLength(2));
    expect(paramsOf(exportCalls()[1]!)).toMatchObject({ format: "xlsx", quickSearch: "ann", order: "username,asc" });
  });

  it("names the file by the resource and the day when the server gives no name", async () => {
    exported = () => ({ data: new Blob(["x"], { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" }), headers: {}, status: 200 });
    const menu = await openExport();
    await userEvent.click(within(menu).getByRole("menuitem", { name: "Export as .xlsx" }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.name).toMatch(/^user-user-\d{4}-\d{2}-\d{2}\.xlsx$/);
  });

  it("shows the server's refusal (too many rows) instead of downloading it", async () => {
    const refusal = { code: 0, msg: "The search matches 120000 rows; one export writes at most 100000. Narrow the search and export again.", time: 0, data: null };
    exported = () => ({ data: new Blob([JSON.stringify(refusal)], { type: "application/json; charset=utf-8" }), headers: {}, status: 200 });
    const menu = await openExport();
    await userEvent.click(within(menu).getByRole("menuitem", { name: "Export as .csv" }));
    await waitFor(() => expect(notifyRequestError).toHaveBeenCalledWith(refusal.msg));
    expect(clicked).toEqual([]);
  });
});
