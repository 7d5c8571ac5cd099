import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, request } from "../../src/client/api/index.ts";
import { envelope, grant, memberRows, paramsOf, renderScreen } from "./crud-example.tsx";

// Only the request function is replaced: the form, react-hook-form, zod and Query run for real.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const groups = [
  { id: 1, name: "Students" },
  { id: 2, name: "Teachers" },
  { id: 3, name: "Staff" },
];
let answerSave: (config: AxiosRequestConfig) => unknown = () => envelope(null);
const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);
const callsTo = (url: string) => calls().filter((c) => c.url === url);

beforeEach(() => {
  answerSave = () => envelope(null);
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    const params = paramsOf(config);
    if (config.url === "/admin/user/group/index") {
      if (params.initKey) return envelope({ list: groups.filter((g) => String(g[params.initKey as "id"]) === params.initValue), total: 1 });
      const term = String(params.quickSearch ?? "").toLowerCase();
      return envelope({ list: groups.filter((g) => g.name.toLowerCase().includes(term)), total: 3 });
    }
    if (config.url === "/admin/user/user/index") return envelope({ list: memberRows(3), total: 3 });
    if (config.url === "/admin/user/user/edit" && config.method === "get") {
      return envelope({ row: { id: 3, username: "carol", group_id: 2, money: "12.50", status: 0, birthday: 1_714_629_900, password: "" } });
    }
    return answerSave(config);
  }) as never);
  grant("add", "edit", "del");
});

afterEach(() => vi.mocked(request).mockReset());

async function openAdd() {
  renderScreen();
  await screen.findByText("user1");
  await userEvent.click(screen.getByRole("button", { name: "Add" }));
  return screen.findByRole("dialog", { name: /Add/ });
}

describe("the add/edit form of a definition", () => {
  it("validates with the definition's schema and shows each message beside its field, sending nothing", async () => {
    const dialog = await openAdd();
    await userEvent.type(within(dialog).getByLabelText("Username"), "ab");
    await userEvent.type(within(dialog).getByLabelText("Password"), "123");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    const username = within(dialog).getByLabelText("Username");
    await waitFor(() => expect(username.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(username.getAttribute("aria-describedby")!)!.textContent).toBe("At least 3 characters");
    const password = within(dialog).getByLabelText("Password");
    expect(document.getElementById(password.getAttribute("aria-describedby")!)!.textContent).toBe("At least 6 characters");
    expect(callsTo("/admin/user/user/add")).toHaveLength(0);
  });

  it("sends the add form's values (switch as 1/0, number as a number) and closes", async () => {
    const dialog = await openAdd();
    await userEvent.type(within(dialog).getByLabelText("Username"), "dave");
    await userEvent.type(within(dialog).getByLabelText("Password"), "secret1");
    await userEvent.type(within(dialog).getByLabelText("Balance"), "3.5");
    expect(within(dialog).getByRole("switch", { name: "Enabled" }).getAttribute("aria-checked")).toBe("true");
    await userEvent.click(within(dialog).getByRole("switch", { name: "Enabled" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo("/admin/user/user/add")).toHaveLength(1));
    const sent = callsTo("/admin/user/user/add")[0]!;
    expect(sent.method).toBe("post");
    expect(sent.data).toEqual({ username: "dave", group_id: null, password: "secret1", money: 3.5, status: 0, birthday: null });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("shows the server's per-field messages beside the field and keeps the dialog open", async () => {
    answerSave = () => {
      throw new ApiError({ code: 0, msg: "This username is taken", data: { fields: { username: "This username is taken" } } });
    };
    const dialog = await openAdd();
    await userEvent.type(within(dialog).getByLabelText("Username"), "alice");
    await userEvent.type(within(dialog).getByLabelText("Password"), "secret1");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    const username = within(dialog).getByLabelText("Username");
    await waitFor(() => expect(username.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(username.getAttribute("aria-describedby")!)!.textContent).toBe("This username is taken");
    expect(within(dialog).getByLabelText("Password").getAttribute("aria-invalid")).toBeNull();
    expect(within(dialog).queryByRole("alert")).toBeNull();
    expect(screen.getByRole("dialog")).toBeTruthy();
  });

  it("shows a refusal that names no field of the form above the buttons", async () => {
    answerSave = () => {
      throw new ApiError({ code: 0, msg: "Incorrect parameter!", data: null });
    };
    const dialog = await openAdd();
    await userEvent.type(within(dialog).getByLabelText("Username"), "alice");
    await userEvent.type(within(dialog).getByLabelText("Password"), "secret1");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Incorrect parameter!");
  });

  it("edits a row: loads it with edit?id=, preloads the remote select's label, searches with select=1, sends the change", async () => {
    renderScreen();
    await screen.findByText("user1");
    await userEvent.click(screen.getByRole("button", { name: "Edit row 3" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    const load = await waitFor(() => {
      const found = callsTo("/admin/user/user/edit").find((c) => c.method === "get");
      expect(found).toBeTruthy();
      return found!;
    });
    expect(paramsOf(load)).toEqual({ id: 3 });
    const group = await within(dialog).findByRole("combobox", { name: "Group" });
    // The current value's label, before any search.
    await waitFor(() => expect((group as HTMLInputElement).value).toBe("Teachers"));
    expect(paramsOf(callsTo("/admin/user/group/index")[0]!)).toMatchObject({ select: 1, initKey: "id", initValue: "2" });
    expect((within(dialog).getByLabelText("Password") as HTMLInputElement).value).toBe("");

    await userEvent.clear(group);
    await userEvent.type(group, "sta");
    // After the typing pause, the options are the server's matches for what was typed.
    await waitFor(() => expect(within(dialog).queryByRole("option", { name: "Students" })).toBeNull(), { timeout: 2000 });
    expect(callsTo("/admin/user/group/index").some((c) => paramsOf(c).select === 1 && paramsOf(c).quickSearch === "sta")).toBe(true);
    await userEvent.click(within(dialog).getByRole("option", { name: "Staff" }));
    expect((group as HTMLInputElement).value).toBe("Staff");

    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo("/admin/user/user/edit").filter((c) => c.method === "post")).toHaveLength(1));
    const sent = callsTo("/admin/user/user/edit").find((c) => c.method === "post")!;
    // An empty password is left out on edit (kept); the datetime goes back as the same seconds.
    expect(sent.data).toEqual({ id: 3, username: "carol", group_id: 3, money: 12.5, status: 0, birthday: 1_714_629_900 });
  });
});
