import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import questions from "../../src/client/admin/exam/questions.ts";
import type { CrudDefinition } from "../../src/client/admin/crud/types.ts";
import { envelope, grant, memberRows, members, renderScreen } from "./crud-example.tsx";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

/** The example screen with the questions screen's delete notice (questions in use are hidden, not deleted). */
const withNotice: CrudDefinition = { ...members, deleteNotice: questions.deleteNotice };

let usage: Record<number, { papers: number; attempts: number }> = {};
const calls = () => vi.mocked(request).mock.calls.map((c) => c[0] as AxiosRequestConfig);

beforeEach(() => {
  grant("index", "del");
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    if (config.url === "/admin/exam/question/usage") {
      const ids = String((config.params as { ids: string }).ids).split(",").map(Number);
      return envelope({ list: ids.map((id) => ({ id, ...(usage[id] ?? { papers: 0, attempts: 0 }) })) });
    }
    return envelope({ list: memberRows(5), total: 5, remark: "" });
  }) as never);
});
afterEach(() => vi.mocked(request).mockReset());

async function confirmFor(...rows: number[]) {
  const table = await screen.findByRole("table", { name: "Members" });
  await within(table).findByText("user1");
  for (const id of rows) await userEvent.click(within(table).getByRole("checkbox", { name: `Select row ${id}` }));
  await userEvent.click(screen.getByRole("button", { name: "Delete" }));
  return screen.findByRole("alertdialog");
}

describe("the questions screen's delete confirm", () => {
  it("says where a question is used and that it will be hidden, not deleted", async () => {
    usage = { 2: { papers: 2, attempts: 41 } };
    renderScreen(withNotice);
    const dialog = await confirmFor(2);
    await waitFor(() => expect(dialog.textContent).toContain("Used in 2 papers and 41 attempts: it will be hidden, not deleted."));
    expect(dialog.textContent).toContain("Delete 1 row?");
    expect(calls().find((c) => c.url === "/admin/exam/question/usage")!.params).toEqual({ ids: "2" });
  });

  it("counts in the singular, and names how many of several are in use", async () => {
    usage = { 2: { papers: 1, attempts: 0 }, 4: { papers: 0, attempts: 1 } };
    renderScreen(withNotice);
    const dialog = await confirmFor(2, 3, 4);
    await waitFor(() =>
      expect(dialog.textContent).toContain("2 of these questions are in use (in 1 paper and 1 attempt): they will be hidden, not deleted; the others are deleted."),
    );
  });

  it("says nothing more for questions used nowhere", async () => {
    usage = {};
    renderScreen(withNotice);
    const dialog = await confirmFor(3);
    await waitFor(() => expect(calls().some((c) => c.url === "/admin/exam/question/usage")).toBe(true));
    await waitFor(() => expect(within(dialog).queryByText(/Checking/)).toBeNull());
    expect(dialog.textContent).not.toContain("hidden");
  });
});
