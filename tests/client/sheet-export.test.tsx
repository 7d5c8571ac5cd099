import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { notifyRequestError, request } from "../../src/client/api/index.ts";
import { ExportDialog } from "../../src/client/admin/exam/QuestionSheet.tsx";
import { MemberExportDialog } from "../../src/client/admin/user/MemberSheet.tsx";
import { captureDownloads, envelope, paramsOf, renderWith } from "./crud-example.tsx";

/**
 * The member and question sheets' export dialogs: the file downloads as the list exports do
 * (api/download.ts: a blob saved under the server's name), a refusal (the envelope) is told and
 * keeps the dialog open.
 */

// Only the request function (and the error toast) are replaced.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn(), notifyRequestError: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);
/** What the server answers an export: a file, or (a refusal) the envelope as JSON. */
let exported: (config: AxiosRequestConfig) => { data: Blob; headers: Record<string, string>; status: number };
let clicked: { name: string; href: string }[] = [];

beforeEach(() => {
  exported = (config) => ({
    data: new Blob(["PK"], { type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" }),
    headers: { "content-disposition": `attachment; filename="${config.url === "/admin/user/user/export" ? "members" : "questions-bank-7"}-2026-11-29.${String(paramsOf(config).format)}"` },
    status: 200,
  });
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    if (config.url?.endsWith("/export")) return exported(config);
    if (config.url === "/admin/exam/classify/index") return envelope({ list: [{ id: 7, title: "题库七", title_en: "Bank seven" }], total: 1, remark: "" });
    return envelope(null);
  }) as never);
  clicked = captureDownloads();
});

afterEach(() => {
  vi.mocked(request).mockReset();
  vi.mocked(notifyRequestError).mockReset();
  vi.restoreAllMocks();
});

describe("the member sheet's export dialog", () => {
  it("downloads the file the server streams, under the server's name, then closes", async () => {
    const onDone = vi.fn();
    renderWith(<MemberExportDialog onDone={onDone} />);
    await userEvent.click(screen.getByRole("button", { name: "Export as .csv" }));
    await waitFor(() => expect(clicked).toEqual([{ name: "members-2026-11-29.csv", href: "blob:export" }]));
    expect(onDone).toHaveBeenCalledTimes(1);
    const sent = calls().filter((c) => c.url === "/admin/user/user/export");
    expect(sent).toHaveLength(1);
    // A blob, not the envelope read as JSON; no time limit shorter than a large file's.
    expect(sent[0]!.responseType).toBe("blob");
    expect(paramsOf(sent[0]!)).toEqual({ format: "csv" });
  });

  it("tells a refusal (the envelope instead of a file) and stays open", async () => {
    exported = () => ({ data: new Blob([JSON.stringify({ code: 0, msg: "You have no permission", time: 0, data: null })], { type: "application/json" }), headers: {}, status: 200 });
    const onDone = vi.fn();
    renderWith(<MemberExportDialog onDone={onDone} />);
    const button = screen.getByRole("button", { name: "Export as .xlsx" });
    await userEvent.click(button);
    await waitFor(() => expect(notifyRequestError).toHaveBeenCalledWith("You have no permission"));
    expect(clicked).toEqual([]);
    expect(onDone).not.toHaveBeenCalled();
    await waitFor(() => expect(button).toBeEnabled());
  });
});

describe("the question sheet's export dialog", () => {
  it("waits for a bank, then downloads that bank's questions", async () => {
    const onDone = vi.fn();
    renderWith(<ExportDialog onDone={onDone} />);
    const xlsx = screen.getByRole("button", { name: "Export as .xlsx" });
    expect(xlsx).toBeDisabled();
    await userEvent.click(screen.getByRole("combobox", { name: "Bank" }));
    await userEvent.click(await screen.findByRole("option", { name: "Bank seven" }));
    await userEvent.click(xlsx);
    await waitFor(() => expect(clicked).toEqual([{ name: "questions-bank-7-2026-11-29.xlsx", href: "blob:export" }]));
    const sent = calls().filter((c) => c.url === "/admin/exam/question/export");
    expect(sent.map((c) => [c.responseType, paramsOf(c)])).toEqual([["blob", { classify_id: 7, format: "xlsx" }]]);
    expect(onDone).toHaveBeenCalledTimes(1);
  });
});
