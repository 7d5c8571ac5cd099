import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import dataRecycleLog from "../../src/client/admin/security/dataRecycleLog.ts";
import sensitiveData from "../../src/client/admin/security/sensitiveData.ts";
import sensitiveDataLog from "../../src/client/admin/security/sensitiveDataLog.ts";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";
// The screens whose labels the data-security screens read (loaded on demand in the app): loaded
// up front here so their definitions are at hand within the queries' wait.
import "../../src/client/admin/user/members.ts";
import "../../src/client/admin/auth/groups.ts";
import "../../src/client/admin/exam/questions.ts";
import { envelope, renderScreen } from "./crud-example.tsx";
import { chooseOption } from "../helpers/select.ts";

// Only the request function is replaced: the screens, TanStack Query and the form run for real.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);
const grant = (path: string, ...actions: string[]) => useNavTabs.setState({ authNode: new Map([[`/admin/${path}`, actions.map((a) => `/admin/${path}/${a}`)]]) });

const records = [
  { id: 7, rule_name: "Members", data_table: "member", row_id: 3, title: "bob", admin_username: "admin", create_time: 1_700_000_000 },
  { id: 8, rule_name: "Members", data_table: "member", row_id: 4, title: "carol", admin_username: "admin", create_time: 1_700_000_100 },
];
const resources = [
  { controller: "user/user", title: "Members", table: "member", fields: ["username", "email", "mobile"], deletable: true, editable: true },
  { controller: "auth/group", title: "Groups", table: "admin_group", fields: ["name", "rules"], deletable: true, editable: true },
];

const recycledQuestion = {
  id: 9,
  recycle_id: 3,
  controller: "exam/question",
  data_table: "exam_question",
  row_id: 41,
  title: "Which planet is largest?",
  ip: "127.0.0.1",
  create_time: 1_700_000_000,
  data: { row: { id: 41, stem: "Which planet is largest?", difficulty: 2, analysis: "Jupiter" }, cascaded: [{ table: "exam_question_version", rows: [{ id: 1 }, { id: 2 }] }] },
};
const changes = [{ id: 5, controller: "user/user", rule_name: "Profiles", data_table: "member", id_value: 3, title: "bob", data_field: "mobile", before: null, after: "13800001111", is_rollback: false, admin_username: "admin", create_time: 1 }];

beforeEach(() => {
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    if (config.url === "/admin/security/dataRecycleLog/index") return envelope({ list: records, total: 2, remark: "" });
    if (config.url === "/admin/security/sensitiveData/index") return envelope({ list: [{ id: 1, name: "Profiles", controller: "user/user", data_fields: ["username"], status: "enable", create_time: 1 }], total: 1, remark: "" });
    if (config.url === "/admin/security/sensitiveData/resources") return envelope(resources);
    if (config.url === "/admin/security/dataRecycleLog/edit") return envelope({ row: recycledQuestion });
    if (config.url === "/admin/security/sensitiveDataLog/index") return envelope({ list: changes, total: 1, remark: "" });
    if (config.url === "/admin/security/sensitiveData/edit" && config.method === "get") return envelope({ row: { id: 1, name: "Profiles", controller: "user/user", data_fields: ["username"], status: "enable" } });
    return envelope({ count: 1 });
  }) as never);
});
afterEach(() => vi.mocked(request).mockReset());

describe("the recycle bin", () => {
  it("restores the selected records after a confirm", async () => {
    grant("security/dataRecycleLog", "index", "del", "restore");
    renderScreen(dataRecycleLog);
    const table = await screen.findByRole("table", { name: "Recycle bin" });
    await within(table).findByText("bob");
    const restore = screen.getByRole("button", { name: "Restore" });
    expect(restore).toHaveProperty("disabled", true);
    await userEvent.click(within(table).getByRole("checkbox", { name: "Select row 8" }));
    await userEvent.click(restore);
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog.textContent).toContain("1 row");
    await userEvent.click(within(dialog).getByRole("button", { name: "Restore" }));
    await waitFor(() => expect(calls().some((c) => c.url === "/admin/security/dataRecycleLog/restore")).toBe(true));
    const sent = calls().find((c) => c.url === "/admin/security/dataRecycleLog/restore")!;
    expect(sent).toMatchObject({ method: "post", data: { ids: [8] } });
    // The lists are fetched again and the selection is cleared.
    await waitFor(() => expect(within(table).getByRole("checkbox", { name: "Select row 8" })).toHaveProperty("checked", false));
  });

  it("hides the restore button from an admin without the restore rule", async () => {
    grant("security/dataRecycleLog", "index");
    renderScreen(dataRecycleLog);
    await within(await screen.findByRole("table", { name: "Recycle bin" })).findByText("bob");
    expect(screen.queryByRole("button", { name: "Restore" })).toBeNull();
  });
});

describe("a recycle-bin record's view", () => {
  it("shows the deleted row's fields by the labels of the form it came from, and what went with it", async () => {
    grant("security/dataRecycleLog", "index", "del");
    renderScreen(dataRecycleLog);
    const table = await screen.findByRole("table", { name: "Recycle bin" });
    await within(table).findByText("bob");
    await userEvent.click(within(table).getByRole("button", { name: "View row 7" }));
    const dialog = await screen.findByRole("dialog");
    const kept = await within(dialog).findByTestId("recycled-row");
    // The question form's labels, once its definition has loaded.
    await waitFor(() => expect(within(kept).getByText("Difficulty")).toBeTruthy());
    expect(within(kept).getByText("Analysis")).toBeTruthy();
    expect(within(kept).queryByText("analysis")).toBeNull();
    expect(within(kept).getByText("Jupiter")).toBeTruthy();
    expect(within(dialog).getByText("exam_question_version: 2 rows")).toBeTruthy();
    expect(calls().find((c) => c.url === "/admin/security/dataRecycleLog/edit")).toMatchObject({ params: { id: 7 } });
  });
});

describe("the sensitive data log", () => {
  it("names the changed field by its label", async () => {
    grant("security/sensitiveDataLog", "index");
    renderScreen(sensitiveDataLog);
    const table = await screen.findByRole("table", { name: "Sensitive data log" });
    await within(table).findByText("bob");
    expect(await within(table).findByText("Mobile")).toBeTruthy();
    expect(within(table).queryByText("mobile")).toBeNull();
  });
});

describe("a sensitive-data rule's form", () => {
  it("offers the chosen data's fields, checked as the rule has them, and sends the list", async () => {
    grant("security/sensitiveData", "index", "edit");
    renderScreen(sensitiveData);
    const table = await screen.findByRole("table", { name: "Sensitive data" });
    await within(table).findByText("Profiles");
    // The watched fields by their labels (the members form's), not their column names.
    expect(await within(table).findByText("Username")).toBeTruthy();
    expect(within(table).queryByText("username")).toBeNull();
    await userEvent.click(within(table).getByRole("button", { name: "Edit row 1" }));
    const dialog = await screen.findByRole("dialog");
    const username = await within(dialog).findByRole("checkbox", { name: "Username" });
    expect(username).toHaveProperty("checked", true);
    await userEvent.click(await within(dialog).findByRole("checkbox", { name: "Mobile" }));
    // Another data offers its own fields.
    await chooseOption(within(dialog).getByLabelText("Data"), "Groups (auth/group)");
    expect(within(dialog).queryByRole("checkbox", { name: "Mobile" })).toBeNull();
    expect(await within(dialog).findByRole("checkbox", { name: "Name" })).toBeTruthy();
    await chooseOption(within(dialog).getByLabelText("Data"), "Members (user/user)");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls().some((c) => c.url === "/admin/security/sensitiveData/edit" && c.method === "post")).toBe(true));
    expect(calls().find((c) => c.url === "/admin/security/sensitiveData/edit" && c.method === "post")!.data).toEqual({
      id: 1,
      name: "Profiles",
      controller: "user/user",
      data_fields: ["username", "mobile"],
      status: "enable",
    });
  });
});
