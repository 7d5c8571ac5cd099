import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, request } from "../../src/client/api/index.ts";
import { CrudScreen } from "../../src/client/admin/crud/CrudScreen.tsx";
import type { CrudDefinition } from "../../src/client/admin/crud/types.ts";
import papers from "../../src/client/admin/exam/papers.ts";
import questions from "../../src/client/admin/exam/questions.ts";
import rooms from "../../src/client/admin/exam/rooms.ts";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";
import { envelope, paramsOf } from "./crud-example.tsx";

/**
 * Staff cannot build a broken exam, as the forms help them: the room form takes its
 * time and pass score from the paper it picks, in minutes, and says when the paper's questions do
 * not add up; the paper form says so too; the question editor keeps one answer blank per blank of
 * a fill-in question's text. Only `request` is replaced; the CRUD engine's client runs for real.
 */

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

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

// What a remote select of papers lists (select=1): the total, pass score, time and what the rows add up to.
const paperRows = [
  { id: 7, title: "Road rules", total_score: 20, pass_score: 12, duration: 900, rows_total: 20 },
  { id: 8, title: "Half-built", total_score: 30, pass_score: 18, duration: 1800, rows_total: 26 },
];

beforeEach(() => {
  extra = {};
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    const url = config.url ?? "";
    const handler = extra[`${config.method} ${url}`];
    if (handler) return handler(config);
    const p = paramsOf(config);
    if (url === "/admin/exam/paper/index") {
      if (p.initValue) return list(paperRows.filter((r) => String(r.id) === p.initValue));
      return list(paperRows.filter((r) => !p.quickSearch || r.title.toLowerCase().includes(String(p.quickSearch).toLowerCase())));
    }
    if (url.endsWith("/index")) return list([]);
    return envelope({ count: 1, id: 1 });
  }) as never);
});
afterEach(() => vi.mocked(request).mockReset());

async function pickPaper(dialog: HTMLElement, search: string, name: string) {
  const paper = within(dialog).getByRole("combobox", { name: "Paper" });
  await userEvent.clear(paper);
  await userEvent.type(paper, search);
  await userEvent.click(await within(dialog).findByRole("option", { name }, { timeout: 2000 }));
}

describe("the room form", () => {
  it("prefills the time (in minutes) and pass score from the paper picked, sends seconds, and says when the paper does not add up", async () => {
    grant({ "exam/room": ["index", "add"] });
    let refuse = true;
    extra["post /admin/exam/room/add"] = () => {
      if (refuse) {
        const message = "The pass score cannot be above the paper's total of 20 points";
        throw new ApiError({ code: 0, msg: message, data: { fields: { pass_score: message } } });
      }
      return envelope({ id: 3 });
    };
    renderScreen(rooms);
    await screen.findByRole("table", { name: "Exam rooms" });
    await userEvent.click(screen.getByRole("button", { name: "Add" }));
    const dialog = await screen.findByRole("dialog", { name: /Add/ });
    const minutes = within(dialog).getByLabelText("Time per attempt (minutes)");
    const pass = within(dialog).getByLabelText("Pass score");
    // Before a paper: the defaults, an hour shown as 60 minutes.
    expect(minutes).toHaveValue(60);
    expect(pass).toHaveValue(60);

    // A paper whose questions fall short: said beside the paper.
    await pickPaper(dialog, "Half", "Half-built");
    expect(minutes).toHaveValue(30);
    expect(pass).toHaveValue(18);
    expect(await within(dialog).findByTestId("paper-totals")).toHaveTextContent("Its questions add up to 26 points, not its total of 30: a room cannot use it until they do");

    await pickPaper(dialog, "Road", "Road rules");
    expect(minutes).toHaveValue(15);
    expect(pass).toHaveValue(12);
    await waitFor(() => expect(within(dialog).getByTestId("paper-totals")).toHaveTextContent("Total 20 points; its questions add up to 20"));

    // Staff may change them: 20 minutes travel as 1200 seconds; the server's refusal shows beside the pass score.
    await userEvent.clear(minutes);
    await userEvent.type(minutes, "20");
    await userEvent.clear(pass);
    await userEvent.type(pass, "25");
    await userEvent.type(within(dialog).getByLabelText("Title"), "Spring test");
    fireEvent.change(within(dialog).getByLabelText("Opens"), { target: { value: "2030-01-01T09:00" } });
    fireEvent.change(within(dialog).getByLabelText("Closes"), { target: { value: "2030-01-02T09:00" } });
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent("/admin/exam/room/add")).toHaveLength(1));
    expect(sent("/admin/exam/room/add")[0]!.data).toMatchObject({ paper_id: 7, duration: 1200, pass_score: 25, title: "Spring test" });
    expect(await within(dialog).findByText("The pass score cannot be above the paper's total of 20 points")).toBeTruthy();
    refuse = false;
    await userEvent.clear(pass);
    await userEvent.type(pass, "12");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent("/admin/exam/room/add")).toHaveLength(2));
    expect(sent("/admin/exam/room/add")[1]!.data).toMatchObject({ paper_id: 7, duration: 1200, pass_score: 12 });
  });

  it("shows a room's stored seconds as minutes when editing, and keeps them unless changed", async () => {
    grant({ "exam/room": ["index", "edit"] });
    const room = { id: 4, title: "Autumn", paper_id: 7, paper_title: "Road rules", start_time: 1_900_000_000, end_time: 1_900_086_400, duration: 1530, attempts_allowed: 1, pass_score: 10, review_policy: "never", late_policy: "review", status: "enable" };
    extra["get /admin/exam/room/index"] = () => list([room]);
    extra["get /admin/exam/room/edit"] = () => envelope({ row: { ...room, user_group_id: null, face_rule_id: null, company_id: null, company_ids: [], duty_ids: [], classroom_ids: [] } });
    renderScreen(rooms);
    const table = await screen.findByRole("table", { name: "Exam rooms" });
    await userEvent.click(await within(table).findByRole("button", { name: "Edit row 4" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    const minutes = await within(dialog).findByLabelText("Time per attempt (minutes)");
    await waitFor(() => expect(minutes).toHaveValue(25.5));
    // The paper it keeps adds up: nothing to warn about, nothing prefilled over the room's own values.
    expect(await within(dialog).findByTestId("paper-totals")).toHaveTextContent("Total 20 points; its questions add up to 20");
    expect(within(dialog).getByLabelText("Pass score")).toHaveValue(10);
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent("/admin/exam/room/edit")).toHaveLength(1));
    expect(sent("/admin/exam/room/edit")[0]!.data).toMatchObject({ id: 4, duration: 1530, pass_score: 10 });
  });
});

describe("the paper form", () => {
  it("says when its questions do not add up to the total being entered, and takes its time in minutes", async () => {
    grant({ "exam/paper": ["index", "edit"] });
    const paper = { id: 8, title: "Half-built", total_score: 30, pass_score: 18, duration: 1800, shuffle_options: false, partial_credit: false, status: "enable", rows_total: 26 };
    extra["get /admin/exam/paper/index"] = () => list([paper]);
    extra["get /admin/exam/paper/edit"] = () => envelope({ row: paper });
    renderScreen(papers);
    const table = await screen.findByRole("table", { name: "Papers" });
    await userEvent.click(await within(table).findByRole("button", { name: "Edit row 8" }));
    const dialog = await screen.findByRole("dialog", { name: /Edit/ });
    expect(await within(dialog).findByTestId("paper-totals")).toHaveTextContent("Its questions add up to 26 points, not its total of 30: a room cannot use it until they do");
    const total = within(dialog).getByLabelText("Total score");
    await userEvent.clear(total);
    await userEvent.type(total, "26");
    expect(within(dialog).getByTestId("paper-totals")).toHaveTextContent("Total 26 points; its questions add up to 26");
    const minutes = within(dialog).getByLabelText("Duration (minutes)");
    expect(minutes).toHaveValue(30);
    await userEvent.clear(minutes);
    await userEvent.type(minutes, "45");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(sent("/admin/exam/paper/edit")).toHaveLength(1));
    expect(sent("/admin/exam/paper/edit")[0]!.data).toMatchObject({ id: 8, total_score: 26, duration: 2700 });
  });
});

describe("the question editor's fill-in blanks", () => {
  it("adds and removes answer blanks as blanks are typed in the text, and blanks added or removed by the answer change the text", async () => {
    grant({ "exam/question": ["index", "add"] });
    renderScreen(questions);
    await screen.findByRole("table", { name: "Questions" });
    await userEvent.click(screen.getByRole("button", { name: "Add" }));
    const dialog = await screen.findByRole("dialog", { name: /Add/ });
    // The blank hint shows for a fill-in question only.
    const hint = /marks each blank with ____/;
    expect(within(dialog).queryByText(hint)).toBeNull();
    await userEvent.click(within(dialog).getByRole("radio", { name: "Fill in the blanks" }));
    expect(within(dialog).getByText(hint)).toBeInTheDocument();
    const stem = within(dialog).getByLabelText("Question");
    const blanks = () => within(dialog).queryAllByRole("group", { name: /^Blank \d+: accepted answers$/ });

    await userEvent.type(stem, "Founded in ____");
    expect(blanks()).toHaveLength(1);
    await userEvent.type(within(dialog).getByLabelText("Blank 1, answer 1"), "1949");
    await userEvent.type(stem, ", capital ____, river ____.");
    expect(blanks()).toHaveLength(3);
    // What was typed in blank 1 stays.
    expect(within(dialog).getByLabelText("Blank 1, answer 1")).toHaveValue("1949");
    expect(within(dialog).getByTestId("question-preview")).not.toHaveTextContent(/blanks \(____\)/);

    // Deleting the last blank from the text drops the last answer blank.
    await userEvent.clear(stem);
    await userEvent.type(stem, "Founded in ____, capital ____.");
    expect(blanks()).toHaveLength(2);
    expect(within(dialog).getByLabelText("Blank 1, answer 1")).toHaveValue("1949");

    // "Add blank" adds one to the text too; removing blank 1 takes the first "____" out of the text.
    await userEvent.click(within(dialog).getByRole("button", { name: "Add blank" }));
    expect(blanks()).toHaveLength(3);
    expect(stem).toHaveValue("Founded in ____, capital ____.____");
    await userEvent.click(within(dialog).getByRole("button", { name: "Remove blank 1" }));
    expect(blanks()).toHaveLength(2);
    expect(stem).toHaveValue("Founded in , capital ____.____");
  });
});
