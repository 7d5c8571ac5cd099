import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, request } from "../../src/client/api/index.ts";
import classify from "../../src/client/admin/exam/classify.ts";
import rooms from "../../src/client/admin/exam/rooms.ts";
import courses from "../../src/client/admin/course/courses.ts";
import classrooms from "../../src/client/admin/org/classrooms.ts";
import companies from "../../src/client/admin/org/companies.ts";
import duties from "../../src/client/admin/org/duties.ts";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";
import { envelope, paramsOf } from "./crud-example.tsx";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { CrudScreen } from "../../src/client/admin/crud/CrudScreen.tsx";
import type { CrudDefinition } from "../../src/client/admin/crud/types.ts";
import { chooseOption } from "../helpers/select.ts";

/**
 * The organisation screens as an admin uses them, with the server's answers given
 * through the one HTTP client (only `request` is replaced; the screens, forms, TanStack Query and
 * the CRUD engine's client run for real): the companies tree, duties, classrooms with their head
 * teacher picker and members, and the "open to" picker of course, room and bank forms.
 */

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

/** A definition's screen at its own route (a row action's buttons check rules relative to it). */
function renderScreen(definition: CrudDefinition) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[`/admin/${definition.path}`]}>
          <CrudScreen definition={definition} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

type Handler = (config: AxiosRequestConfig) => unknown;
let extra: Record<string, Handler> = {};
const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);
const sent = (url: string) => calls().filter((c) => c.url === url && c.method === "post");
const grant = (nodes: Record<string, string[]>) =>
  useNavTabs.setState({ authNode: new Map(Object.entries(nodes).map(([path, actions]) => [`/admin/${path}`, actions.map((a) => `/admin/${path}/${a}`)])) });
const list = (rows: Record<string, unknown>[]) => envelope({ list: rows, total: rows.length, remark: "" });

const companyRows = [
  { id: 1, pid: 0, name: "Head office", weigh: 3, status: "enable", create_time: 1 },
  { id: 2, pid: 1, name: "Shanghai branch", weigh: 2, status: "enable", create_time: 1 },
  { id: 3, pid: 0, name: "Partner", weigh: 1, status: "disable", create_time: 1 },
];
const dutyRows = [
  { id: 5, name: "Nurse", weigh: 2, status: "enable", create_time: 1 },
  { id: 6, name: "Surgeon", weigh: 1, status: "enable", create_time: 1 },
];
const classroomRows = [{ id: 9, name: "Class A", company_id: 2, company_name: "Shanghai branch", head_admin_id: 21, head_name: "Ms Li", head_username: "li", member_count: 2, start_time: 0, end_time: 0, status: "enable" }];
const teachers = [
  { id: 21, username: "li", nickname: "Ms Li" },
  { id: 22, username: "wang", nickname: "Mr Wang" },
];
let members = [
  { id: 31, username: "amy", nickname: "Amy" },
  { id: 32, username: "bob", nickname: "" },
];

beforeEach(() => {
  extra = {};
  members = [
    { id: 31, username: "amy", nickname: "Amy" },
    { id: 32, username: "bob", nickname: "" },
  ];
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    const url = config.url ?? "";
    const handler = extra[`${config.method} ${url}`];
    if (handler) return handler(config);
    const p = paramsOf(config);
    if (url === "/admin/org/company/index") return list(companyRows);
    if (url === "/admin/org/duty/index") return list(dutyRows);
    if (url === "/admin/org/classroom/index") return list(classroomRows);
    if (url === "/admin/org/headTeacher/index") {
      if (p.initValue) return list(teachers.filter((t) => String(t.id) === p.initValue));
      return list(teachers.filter((t) => !p.quickSearch || t.nickname.toLowerCase().includes(String(p.quickSearch).toLowerCase())));
    }
    if (url === "/admin/org/classroom/members") return envelope({ list: members });
    if (url === "/admin/user/user/index") return list([{ id: 33, username: "carol", nickname: "Carol" }]);
    if (url.endsWith("/index")) return list([]);
    return envelope({ count: 1, id: 1 });
  }) as never);
});
afterEach(() => vi.mocked(request).mockReset());

describe("companies", () => {
  it("nest as a tree under their parent, and a new one is added under the parent chosen", async () => {
    grant({ "org/company": ["index", "add", "edit"] });
    renderScreen(companies);
    const table = await screen.findByRole("table", { name: "Companies" });
    await within(table).findByText("Head office");
    expect(within(table).getByText("Partner")).toBeTruthy();
    // The branch is a row under the head office: shown when the head office is unfolded, hidden again when folded.
    expect(within(table).queryByText("Shanghai branch")).toBeNull();
    const head = within(table).getByText("Head office").closest("tr")!;
    await userEvent.click(within(head).getByRole("button", { name: "Expand" }));
    expect(within(table).getByText("Shanghai branch")).toBeTruthy();
    await userEvent.click(within(head).getByRole("button", { name: "Collapse" }));
    expect(within(table).queryByText("Shanghai branch")).toBeNull();

    await userEvent.click(screen.getByRole("button", { name: "Add" }));
    const dialog = await screen.findByRole("dialog", { name: /Add/ });
    const parent = within(dialog).getByLabelText("Parent company");
    await waitFor(() => expect(parent).not.toHaveAttribute("aria-busy"));
    await chooseOption(parent, "Shanghai branch");
    await userEvent.type(within(dialog).getByLabelText("Name"), "Pudong office");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent("/admin/org/company/add")).toHaveLength(1));
    expect(sent("/admin/org/company/add")[0]!.data).toEqual({ pid: 2, name: "Pudong office", weigh: 0, status: "enable" });
  });
});

describe("duties", () => {
  it("are listed by weight and edited with the shared schema (an empty name is refused before sending)", async () => {
    grant({ "org/duty": ["index", "edit"] });
    extra["get /admin/org/duty/edit"] = () => envelope({ row: { id: 5, name: "Nurse", weigh: 2, status: "enable" } });
    renderScreen(duties);
    const table = await screen.findByRole("table", { name: "Duties" });
    await within(table).findByText("Nurse");
    expect(paramsOf(calls().find((c) => c.url === "/admin/org/duty/index")!)).toMatchObject({ order: "weigh,desc" });
    await userEvent.click(within(table).getByRole("button", { name: "Edit row 5" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    const name = within(dialog).getByLabelText("Name");
    await waitFor(() => expect((name as HTMLInputElement).value).toBe("Nurse"));
    await userEvent.clear(name);
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    // The shared schema's own message (the one the server would answer), not zod's.
    expect(await within(dialog).findByText("Please enter the duty name (at most 50 characters)")).toBeTruthy();
    expect(sent("/admin/org/duty/edit")).toHaveLength(0);
    await userEvent.type(name, "Head nurse");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent("/admin/org/duty/edit")).toHaveLength(1));
    expect(sent("/admin/org/duty/edit")[0]!.data).toMatchObject({ id: 5, name: "Head nurse", weigh: 2, status: "enable" });
  });
});

describe("classrooms", () => {
  it("pick the head teacher from the classroom's own source (a company admin's company), and show the server's refusal beside it", async () => {
    grant({ "org/classroom": ["index", "add", "edit"] });
    extra["get /admin/org/classroom/edit"] = () =>
      envelope({ row: { id: 9, name: "Class A", company_id: 2, head_admin_id: 21, start_time: 0, end_time: 0, remark: "", status: "enable", course_ids: [], room_ids: [] } });
    let refuse = true;
    extra["post /admin/org/classroom/edit"] = () => {
      if (refuse) throw new ApiError({ code: 0, msg: "The head teacher must be an admin of your company", data: { fields: { head_admin_id: "The head teacher must be an admin of your company" } } });
      return envelope(null);
    };
    renderScreen(classrooms);
    const table = await screen.findByRole("table", { name: "Classrooms" });
    // The list names the head teacher and the company.
    expect(await within(table).findByText("Ms Li")).toBeTruthy();
    expect(within(table).getByText("Shanghai branch")).toBeTruthy();
    await userEvent.click(within(table).getByRole("button", { name: "Edit row 9" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    const head = await within(dialog).findByRole("combobox", { name: "Head teacher" });
    // The current head teacher's label comes from the picker's source, never from the admins' screen.
    await waitFor(() => expect((head as HTMLInputElement).value).toBe("Ms Li"));
    const asked = calls().filter((c) => (c.url ?? "").endsWith("/index") && paramsOf(c).select === 1).map((c) => c.url);
    expect(asked).toContain("/admin/org/headTeacher/index");
    expect(asked).not.toContain("/admin/auth/admin/index");
    await userEvent.clear(head);
    await userEvent.type(head, "wang");
    await userEvent.click(await within(dialog).findByRole("option", { name: "Mr Wang" }, { timeout: 2000 }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent("/admin/org/classroom/edit")).toHaveLength(1));
    expect(sent("/admin/org/classroom/edit")[0]!.data).toMatchObject({ id: 9, head_admin_id: 22 });
    // Refused: the message beside the field, the dialog still open.
    expect(await within(dialog).findByText("The head teacher must be an admin of your company")).toBeTruthy();
    expect(screen.getByRole("dialog", { name: /Edit/ })).toBe(dialog);
    refuse = false;
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: /Edit/ })).toBeNull());
    expect(sent("/admin/org/classroom/edit")).toHaveLength(2);
  });

  it("name a head teacher the picker does not list (chosen by a super admin) from the classroom's row, and keep it on save", async () => {
    grant({ "org/classroom": ["index", "edit"] });
    extra["get /admin/org/classroom/edit"] = () =>
      envelope({ row: { id: 9, name: "Class A", company_id: 2, head_admin_id: 1, head_label: "Super admin", start_time: 0, end_time: 0, remark: "", status: "enable", course_ids: [], room_ids: [] } });
    renderScreen(classrooms);
    await within(await screen.findByRole("table", { name: "Classrooms" })).findByText("Class A");
    await userEvent.click(screen.getByRole("button", { name: "Edit row 9" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    const head = await within(dialog).findByRole("combobox", { name: "Head teacher" });
    await waitFor(() => expect((head as HTMLInputElement).value).toBe("Super admin"));
    expect(calls().some((c) => c.url === "/admin/org/headTeacher/index" && paramsOf(c).initValue === "1")).toBe(true);
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent("/admin/org/classroom/edit")).toHaveLength(1));
    expect(sent("/admin/org/classroom/edit")[0]!.data).toMatchObject({ id: 9, head_admin_id: 1 });
    expect(sent("/admin/org/classroom/edit")[0]!.data).not.toHaveProperty("head_label");
  });

  it("list, add and remove their members from the row's dialog, each change sent in bulk form and the list fetched again", async () => {
    grant({ "org/classroom": ["index", "members", "addMembers", "removeMembers"] });
    extra["post /admin/org/classroom/addMembers"] = (config) => {
      members = [...members, { id: 33, username: "carol", nickname: "Carol" }];
      return envelope({ count: (config.data as { user_ids: number[] }).user_ids.length });
    };
    extra["post /admin/org/classroom/removeMembers"] = (config) => {
      const gone = (config.data as { user_ids: number[] }).user_ids;
      members = members.filter((m) => !gone.includes(m.id));
      return envelope({ count: gone.length });
    };
    renderScreen(classrooms);
    const table = await screen.findByRole("table", { name: "Classrooms" });
    await within(table).findByText("Class A");
    await userEvent.click(screen.getByRole("button", { name: "Classroom members · 9" }));
    const dialog = await screen.findByRole("dialog", { name: "Classroom members" });
    const roster = await within(dialog).findByRole("list", { name: "Classroom members" });
    expect(within(roster).getAllByRole("listitem").map((li) => li.textContent?.replace("Remove", "").trim())).toEqual(["Amy (amy)", "bob (bob)"]);

    const add = within(dialog).getByRole("button", { name: "Add" });
    expect(add).toHaveProperty("disabled", true);
    const picker = within(dialog).getByRole("combobox", { name: "Add a member" });
    await userEvent.type(picker, "car");
    await userEvent.click(await within(dialog).findByRole("option", { name: "carol" }, { timeout: 2000 }));
    await userEvent.click(add);
    await waitFor(() => expect(sent("/admin/org/classroom/addMembers")).toHaveLength(1));
    expect(sent("/admin/org/classroom/addMembers")[0]!.data).toEqual({ id: 9, user_ids: [33] });
    const names = () => within(dialog).getAllByRole("listitem").map((li) => li.textContent?.replace("Remove", "").trim());
    await waitFor(() => expect(names()).toEqual(["Amy (amy)", "bob (bob)", "Carol (carol)"]));

    const bob = within(dialog).getAllByRole("listitem").find((li) => li.textContent?.includes("(bob)"))!;
    await userEvent.click(within(bob).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(sent("/admin/org/classroom/removeMembers")).toHaveLength(1));
    expect(sent("/admin/org/classroom/removeMembers")[0]!.data).toEqual({ id: 9, user_ids: [32] });
    await waitFor(() => expect(names()).toEqual(["Amy (amy)", "Carol (carol)"]));
  });

  it("hide adding and removing members from an admin holding only the list rule", async () => {
    grant({ "org/classroom": ["index", "members"] });
    renderScreen(classrooms);
    await within(await screen.findByRole("table", { name: "Classrooms" })).findByText("Class A");
    await userEvent.click(screen.getByRole("button", { name: "Classroom members · 9" }));
    const dialog = await screen.findByRole("dialog", { name: "Classroom members" });
    expect((await within(dialog).findAllByRole("listitem")).map((li) => li.textContent)).toEqual(["Amy (amy)", "bob (bob)"]);
    expect(within(dialog).queryByRole("button", { name: "Add" })).toBeNull();
    expect(within(dialog).queryByRole("button", { name: "Remove" })).toBeNull();
  });
});

describe("the 'open to' picker of course, exam room and bank forms", () => {
  it.each([
    ["question bank", classify, "exam/classify", { id: 4, pid: 0, title: "Bank", title_en: "Bank (en)", kind: "practice", weigh: 0, status: "enable" }],
    ["course", courses, "course/course", null],
    ["exam room", rooms, "exam/room", null],
  ] as const)("the %s form offers companies, duties and classrooms", async (_name, definition, path, row) => {
    const fields = definition.form!.map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(["company_ids", "duty_ids", "classroom_ids"]));
    for (const [field, source] of [["company_ids", "org/company"], ["duty_ids", "org/duty"], ["classroom_ids", "org/classroom"]] as const) {
      expect(definition.form!.find((f) => f.field === field)).toMatchObject({ kind: "multiSelect", tree: { path: source } });
    }
    if (!row) return;
    // The bank's form, edited: its assignment shown by name, a duty added, the ids sent.
    grant({ [path]: ["index", "edit"] });
    extra[`get /admin/${path}/edit`] = () => envelope({ row: { ...row, company_ids: [2], duty_ids: [], classroom_ids: [9] } });
    extra[`get /admin/${path}/index`] = () => list([{ ...row, update_time: 1 }]);
    renderScreen(definition);
    const table = await screen.findByRole("table");
    await within(table).findByText("Bank");
    await userEvent.click(within(table).getByRole("button", { name: "Edit row 4" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    const companiesPicker = within(dialog).getByRole("button", { name: "Open to companies" });
    await waitFor(() => expect(companiesPicker).toHaveTextContent("Shanghai branch"));
    expect(within(dialog).getByRole("button", { name: "Open to classrooms" })).toHaveTextContent("Class A");
    await userEvent.click(within(dialog).getByRole("button", { name: "Open to duties" }));
    await userEvent.click(await screen.findByRole("checkbox", { name: "Surgeon" }));
    await userEvent.keyboard("{Escape}");
    await userEvent.click(within(dialog).getByRole("button", { name: "Remove Class A" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent(`/admin/${path}/edit`)).toHaveLength(1));
    expect(sent(`/admin/${path}/edit`)[0]!.data).toMatchObject({ id: 4, company_ids: [2], duty_ids: [6], classroom_ids: [] });
  });
});
