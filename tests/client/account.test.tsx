import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { MemoryRouter, Route, RouterProvider, Routes, createMemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { formatTime } from "../../src/shared/time.ts";
import { request } from "../../src/client/api/index.ts";
import type { MenuRule } from "../../src/client/routing/menus.ts";
import { useMemberCenter } from "../../src/client/stores/memberCenter.ts";
import { useSiteConfig } from "../../src/client/stores/siteConfig.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";
import Overview from "../../src/client/user/account/Overview.tsx";
import ChangePassword from "../../src/client/user/account/ChangePassword.tsx";
import { changePasswordSchema } from "../../src/client/ui/form/rules.ts";
import { LogTable, signedAmount, type AccountLogRow, type LogTableProps } from "../../src/client/user/account/LogTable.tsx";
import { ProfileForm, checkAvatarFile, profileSchema, type AccountProfile, type ProfileValues } from "../../src/client/user/account/Profile.tsx";
import { MemberCenterLayout } from "../../src/client/user/MemberCenterLayout.tsx";
import { memberCenterReady, startMemberCenter } from "../../src/client/user/memberCenterData.ts";
import { niceTicks } from "../../src/client/user/account/OverviewChart.tsx";
import { pageItems } from "../../src/client/ui/Pager.tsx";
import { DEFAULT_NOTICE_PREFERENCE } from "../../src/shared/notice.ts";

// The request layer is mocked only to prove that invalid forms never reach the network.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

afterEach(() => {
  vi.mocked(request).mockReset();
});

function wrap(ui: ReactNode, path = "/", seed: [readonly unknown[], unknown][] = []) {
  // Seeded data never goes stale here, so a screen shows it without asking the network.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  for (const [key, data] of seed) client.setQueryData(key, data);
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

/** Unix seconds of a local date and time. */
const at = (y: number, m: number, d: number, hh: number, mm: number, ss: number) => new Date(y, m - 1, d, hh, mm, ss).getTime() / 1000;

const moneyRows: AccountLogRow[] = [
  { id: 2, user_id: 1, money: "10.00", before: "80.00", after: "90.00", memo: "Top-up", create_time: at(2024, 5, 2, 14, 5, 9) },
  { id: 1, user_id: 1, money: "-5.50", before: "85.50", after: "80.00", memo: "Course purchase", create_time: at(2024, 5, 1, 8, 0, 0) },
];

function renderTable(props: Partial<LogTableProps> = {}) {
  const onPage = vi.fn();
  const onRetry = vi.fn();
  wrap(<LogTable kind="money" caption="Balance log" rows={moneyRows} total={2} page={1} onPage={onPage} onRetry={onRetry} {...props} />);
  return { onPage, onRetry };
}

describe("LogTable", () => {
  it("renders each row with a signed, coloured change, before/after with 2 decimals, memo and local time", () => {
    renderTable();
    const table = screen.getByRole("table", { name: "Balance log" });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Balance change", "Balance before", "Balance after", "Memo", "Time"]);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(2);

    const first = within(rows[0]!).getAllByRole("cell").map((c) => c.textContent);
    expect(first).toEqual(["+10.00", "80.00", "90.00", "Top-up", "2024-05-02 14:05:09"]);
    const second = within(rows[1]!).getAllByRole("cell").map((c) => c.textContent);
    expect(second).toEqual(["\u22125.50", "85.50", "80.00", "Course purchase", "2024-05-01 08:00:00"]);
    expect(second[4]).toBe(formatTime(moneyRows[1]!.create_time));

    // The sign carries the meaning; colour only repeats it.
    expect(within(rows[0]!).getByText("+10.00").className).toMatch(/text-green-700/);
    expect(within(rows[1]!).getByText("\u22125.50").className).toMatch(/text-red-700/);
  });

  it("shows points as whole numbers", () => {
    renderTable({
      kind: "score",
      rows: [{ id: 1, user_id: 1, score: 3, before: 7, after: 10, memo: "Daily check-in", create_time: at(2024, 1, 9, 23, 59, 59) }],
      total: 1,
    });
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Points change", "Points before", "Points after", "Memo", "Time"]);
    const cells = within(screen.getAllByRole("row")[1]!).getAllByRole("cell").map((c) => c.textContent);
    expect(cells).toEqual(["+3", "7", "10", "Daily check-in", "2024-01-09 23:59:59"]);
  });

  it("disables Previous on the first page and Next on the last, and pages through onPage", async () => {
    const user = userEvent.setup();
    const { onPage } = renderTable({ total: 25, page: 1 });
    expect(screen.getByText("Page 1 of 3, 25 records in total")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Previous page" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Next page" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Page 1" })).toHaveAttribute("aria-current", "page");

    await user.click(screen.getByRole("button", { name: "Next page" }));
    expect(onPage).toHaveBeenLastCalledWith(2);
    await user.click(screen.getByRole("button", { name: "Page 3" }));
    expect(onPage).toHaveBeenLastCalledWith(3);
  });

  it("disables Next on the last page", async () => {
    const user = userEvent.setup();
    const { onPage } = renderTable({ total: 25, page: 3 });
    expect(screen.getByRole("button", { name: "Next page" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Previous page" })).toBeEnabled();
    await user.click(screen.getByRole("button", { name: "Previous page" }));
    expect(onPage).toHaveBeenLastCalledWith(2);
  });

  it("has both buttons disabled when everything fits on one page", () => {
    renderTable({ total: 2, page: 1 });
    expect(screen.getByRole("button", { name: "Previous page" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Next page" })).toBeDisabled();
  });

  it("says 'No records yet' when there are none", () => {
    renderTable({ rows: [], total: 0 });
    expect(screen.getByText("No records yet")).toBeInTheDocument();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("shows skeleton rows while the first page loads", () => {
    renderTable({ rows: [], total: 0, loading: true });
    expect(screen.getByRole("table")).toHaveAttribute("aria-busy", "true");
    expect(screen.getAllByTestId("log-skeleton")).toHaveLength(5);
    expect(screen.queryByText("No records yet")).toBeNull();
  });

  it("shows the error with the server's message and retries", async () => {
    const user = userEvent.setup();
    const { onRetry } = renderTable({ rows: [], error: "Please log in" });
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("The records could not be loaded.");
    expect(alert).toHaveTextContent("Please log in");
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe("log helpers", () => {
  it.each([
    { value: "10.00", decimals: 2, text: "+10.00", sign: 1 },
    { value: "-0.50", decimals: 2, text: "\u22120.50", sign: -1 },
    { value: "0.00", decimals: 2, text: "0.00", sign: 0 },
    { value: -3, decimals: 0, text: "\u22123", sign: -1 },
  ] as const)("signs $value as $text", ({ value, decimals, text, sign }) => {
    expect(signedAmount(value, decimals)).toEqual({ text, sign });
  });

  it.each([
    { page: 1, count: 1, items: [1] },
    { page: 3, count: 7, items: [1, 2, 3, 4, 5, 6, 7] },
    { page: 1, count: 20, items: [1, 2, 3, 4, "gap", 20] },
    { page: 10, count: 20, items: [1, "gap", 9, 10, 11, "gap", 20] },
    { page: 20, count: 20, items: [1, "gap", 17, 18, 19, 20] },
  ])("page $page of $count shows $items", ({ page, count, items }) => {
    expect(pageItems(page, count)).toEqual(items);
  });
});

describe("ChangePassword", () => {
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
  const save = () => fireEvent.click(screen.getByRole("button", { name: "Change password" }));

  it("asks for every field and sends nothing", async () => {
    wrap(<ChangePassword />);
    save();
    await waitFor(() => expect(screen.getByLabelText("Old password")).toHaveAccessibleDescription("Required"));
    expect(screen.getByLabelText("New password")).toHaveAccessibleDescription(`A password is 6 to 32 characters, without & < > " or '`);
    expect(screen.getByLabelText("Confirm new password")).toHaveAccessibleDescription("Required");
    expect(screen.getByLabelText("Old password")).toHaveFocus();
    expect(request).not.toHaveBeenCalled();
  });

  it("applies the SPEC §5 password rule to the new password", async () => {
    wrap(<ChangePassword />);
    fill("Old password", "anything");
    fill("New password", "abc<def1");
    fill("Confirm new password", "abc<def1");
    save();
    await waitFor(() => expect(screen.getByLabelText("New password")).toHaveAccessibleDescription(`A password is 6 to 32 characters, without & < > " or '`));
    expect(screen.getByLabelText("New password")).toHaveFocus();
    fill("New password", "good-one1");
    await waitFor(() => expect(screen.getByLabelText("New password")).not.toHaveAttribute("aria-invalid"));
    // The confirmation is checked again as the new password changes.
    expect(screen.getByLabelText("Confirm new password")).toHaveAccessibleDescription("The two passwords do not match");
    fill("New password", "short");
    await waitFor(() => expect(screen.getByLabelText("New password")).toHaveAccessibleDescription(`A password is 6 to 32 characters, without & < > " or '`));
    expect(request).not.toHaveBeenCalled();
  });

  it("says 'The two passwords do not match' and sends nothing", async () => {
    wrap(<ChangePassword />);
    fill("Old password", "member123456");
    fill("New password", "newpass123");
    fill("Confirm new password", "newpass124");
    save();
    await waitFor(() => expect(screen.getByLabelText("Confirm new password")).toHaveAccessibleDescription("The two passwords do not match"));
    expect(screen.getByLabelText("Old password")).not.toHaveAttribute("aria-invalid");
    expect(screen.getByLabelText("New password")).not.toHaveAttribute("aria-invalid");
    fill("Confirm new password", "newpass123");
    await waitFor(() => expect(screen.getByLabelText("Confirm new password")).not.toHaveAttribute("aria-invalid"));
    expect(request).not.toHaveBeenCalled();
  });

  it("sends the old and the new password once every field passes", async () => {
    wrap(<ChangePassword />);
    fill("Old password", "member123456");
    fill("New password", "newpass123");
    fill("Confirm new password", "newpass123");
    save();
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(vi.mocked(request).mock.calls[0]?.[0]).toMatchObject({ url: "/api/account/changePassword", data: { oldPassword: "member123456", newPassword: "newpass123" } });
  });

  it("leaves the member center before forgetting the member: nothing asks the server as a signed-out member", async () => {
    // The member center as the app has it: its routes from the menus, its loading route (which
    // asks for the member center's data), and a home whose code arrives a little later (a lazy
    // route), so the navigation is not done at once.
    const route = { path: "/user/account/changePassword", name: "changePassword", title: "Change password", component: "account/changePassword", keepalive: false, extend: "" };
    useMemberCenter.getState().setMenus([], [route as never], new Map());
    useUserInfo.getState().dataFill({ id: 7, username: "member", token: "t", refresh_token: "r" });
    vi.mocked(request).mockImplementation(async (config) => {
      if (config.url === "/api/account/changePassword") return { code: 1, msg: "ok", time: 0, data: null } as never;
      // A signed-out member's request: the server says "Please log in first".
      throw new Error(`asked ${config.url} as a signed-out member`);
    });
    const { default: UserRoute } = await import("../../src/client/user/UserRoute.tsx");
    const { default: UserLoading } = await import("../../src/client/user/UserLoading.tsx");
    const router = createMemoryRouter(
      [
        { path: "/", lazy: async () => (await new Promise((done) => setTimeout(done, 30)), { Component: () => <p>Home</p> }) },
        { path: "/user/loading/:to?", Component: UserLoading },
        { path: "/user/*", Component: UserRoute },
      ],
      { initialEntries: ["/user/account/changePassword"] },
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    await screen.findByLabelText("Old password");
    fill("Old password", "member123456");
    fill("New password", "newpass123");
    fill("Confirm new password", "newpass123");
    save();
    await screen.findByText("Home");
    await waitFor(() => expect(useUserInfo.getState().id).toBe(0));
    expect(useMemberCenter.getState().loaded).toBe(false);
    expect(useUserInfo.getState().getToken("auth")).toBe("");
    // Give a loading route's request time to go out, were one to.
    await new Promise((done) => setTimeout(done, 50));
    expect(vi.mocked(request).mock.calls.map(([config]) => config.url)).toEqual(["/api/account/changePassword"]);
    expect(router.state.location.pathname).toBe("/");
  });

  it("checks with the same rules as a schema alone", () => {
    const schema = changePasswordSchema((m) => i18n._(m));
    expect(schema.safeParse({ oldPassword: "x", newPassword: "newpass123", confirmPassword: "newpass123" }).success).toBe(true);
    const refused = schema.safeParse({ oldPassword: "x", newPassword: "newpass123", confirmPassword: "other" });
    expect(refused.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([["confirmPassword", "The two passwords do not match"]]);
  });
});

describe("Profile", () => {
  const base: ProfileValues = { avatar: "", nickname: "Member", gender: 0, birthday: "", motto: "" };
  const today = new Date(2025, 5, 15);
  /** Each refused field and its message, as the form's schema answers them on `today`. */
  const problems = (values: ProfileValues) =>
    profileSchema((m) => i18n._(m), () => today).safeParse(values).error?.issues.map((issue) => [issue.path.join("."), issue.message]) ?? [];

  it.each([
    { change: { nickname: "   " }, field: "nickname", message: "Required" },
    { change: { nickname: "x".repeat(51) }, field: "nickname", message: "At most 50 characters" },
    { change: { motto: "m".repeat(251) }, field: "motto", message: "At most 250 characters" },
    { change: { birthday: "2025-02-30" }, field: "birthday", message: "Please enter a valid date" },
    { change: { birthday: "2025-06-16" }, field: "birthday", message: "Please enter a valid date" },
  ] as const)("rejects $field: $message", ({ change, field, message }) => {
    expect(problems({ ...base, ...change })).toEqual([[field, message]]);
  });

  it("accepts the limits themselves", () => {
    expect(problems({ ...base, nickname: "字".repeat(50), motto: "m".repeat(250), birthday: "2025-06-15" })).toEqual([]);
  });

  const profile: AccountProfile = {
    userInfo: { id: 7, username: "member", nickname: "Member", email: "member@example.com", mobile: "13800138000", avatar: "", gender: 1, birthday: "2000-01-02", motto: "" },
    accountVerificationType: ["email", "mobile"],
  };

  it("shows field errors next to the fields and sends nothing", async () => {
    wrap(<ProfileForm profile={profile} />);
    expect(screen.getByRole("radio", { name: "Male" })).toBeChecked();
    expect(screen.getByLabelText("Birthday")).toHaveValue("2000-01-02");

    fireEvent.change(screen.getByLabelText("Nickname"), { target: { value: "" } });
    fireEvent.change(screen.getByLabelText("Motto"), { target: { value: "m".repeat(251) } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByLabelText("Nickname")).toHaveAccessibleDescription("Required"));
    expect(screen.getByLabelText("Nickname")).toHaveFocus();
    expect(screen.getByLabelText("Motto")).toHaveAccessibleDescription("251/250 At most 250 characters");

    fireEvent.change(screen.getByLabelText("Nickname"), { target: { value: "n".repeat(51) } });
    await waitFor(() => expect(screen.getByLabelText("Nickname")).toHaveAccessibleDescription("At most 50 characters"));
    fireEvent.change(screen.getByLabelText("Nickname"), { target: { value: "New name" } });
    await waitFor(() => expect(screen.getByLabelText("Nickname")).not.toHaveAttribute("aria-invalid"));
    expect(request).not.toHaveBeenCalled();
  });

  it("sends the profile with the nickname trimmed and the gender chosen once it passes", async () => {
    vi.mocked(request).mockResolvedValueOnce({ data: { userInfo: {} } } as never);
    wrap(<ProfileForm profile={profile} />);
    fireEvent.change(screen.getByLabelText("Nickname"), { target: { value: "  New name " } });
    fireEvent.click(screen.getByRole("radio", { name: "Female" }));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(vi.mocked(request).mock.calls[0]?.[0]).toMatchObject({
      url: "/api/account/profile",
      data: { avatar: "", nickname: "New name", gender: 2, birthday: "2000-01-02", motto: "" },
    });
  });

  it("shows email and mobile read-only with the verification note", () => {
    wrap(<ProfileForm profile={profile} />);
    expect(screen.getByText("member@example.com").tagName).toBe("DD");
    expect(screen.getByText("13800138000").tagName).toBe("DD");
    expect(screen.queryByDisplayValue("member@example.com")).toBeNull();
    expect(screen.getByText("Email and mobile number can be changed only after verification.")).toBeInTheDocument();
  });

  it("checks a chosen avatar before uploading it", () => {
    useSiteConfig.setState({ upload: { mode: "local", maxsize: "1kb", mimetype: "jpg,png,pdf", savename: "" } });
    wrap(<ProfileForm profile={profile} />);
    const input = screen.getByLabelText("Change avatar");
    const big = new File([new Uint8Array(2048)], "me.png", { type: "image/png" });
    fireEvent.change(input, { target: { files: [big] } });
    expect(screen.getByRole("alert")).toHaveTextContent("The size of the uploaded file exceeds the allowed range!");
    expect(request).not.toHaveBeenCalled();
  });

  it.each([
    { file: { name: "me.exe", size: 10, type: "application/x-msdownload" }, message: "The type of uploaded file is not allowed!" },
    { file: { name: "cv.pdf", size: 10, type: "application/pdf" }, message: "Please choose an image file" },
    { file: { name: "me.png", size: 11 * 1024 * 1024, type: "image/png" }, message: "The size of the uploaded file exceeds the allowed range!" },
    { file: { name: "me.png", size: 1024, type: "image/png" }, message: null },
    // The avatar's own limits, on top of the site's: a raster image of at most 2 MB.
    { file: { name: "me.png", size: 3 * 1024 * 1024, type: "image/png" }, message: "The size of the uploaded file exceeds the allowed range!" },
    { file: { name: "me.svg", size: 10, type: "image/svg+xml" }, message: "The type of uploaded file is not allowed!" },
  ])("avatar $file.name ($file.size bytes): $message", ({ file, message }) => {
    const problem = checkAvatarFile(file, { maxsize: "10mb", mimetype: "jpg,png,pdf,svg" });
    expect(problem && i18n._(problem)).toBe(message);
  });
});

describe("MemberCenterLayout", () => {
  const rule = (r: Partial<MenuRule> & Pick<MenuRule, "id" | "type" | "title" | "path">): MenuRule => ({
    pid: 0,
    name: r.path,
    icon: "",
    menu_type: r.type === "menu" ? "tab" : null,
    url: "",
    component: r.path,
    keepalive: 0,
    extend: "",
    ...r,
  });

  it("lists each directory's menus as links under /user beside the screen", () => {
    useMemberCenter.setState({
      menus: [
        rule({ id: 1, type: "menu_dir", title: "My account", path: "account", children: [
          rule({ id: 2, type: "menu", title: "Overview", path: "account/overview" }),
          rule({ id: 3, type: "menu", title: "Profile", path: "account/profile", children: [rule({ id: 4, type: "button", title: "Edit", path: "" })] }),
        ] }),
      ],
    });
    wrap(
      <Routes>
        <Route path="/user" element={<MemberCenterLayout />}>
          <Route path="*" element={<p>screen</p>} />
        </Route>
      </Routes>,
      "/user/account/profile",
    );
    const nav = screen.getByRole("navigation", { name: "Member center menu" });
    const group = within(nav).getByRole("list", { name: "My account" });
    expect(within(group).getAllByRole("link").map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["Overview", "/user/account/overview"],
      ["Profile", "/user/account/profile"],
    ]);
    expect(within(nav).getByRole("link", { name: "Profile" })).toHaveAttribute("aria-current", "page");
    expect(screen.getByText("screen")).toBeInTheDocument();
  });
});

describe("Overview", () => {
  it("greets the member with balance and points, and gives the 7 days as a table", async () => {
    useUserInfo.setState({ nickname: "Ada", money: "12.5", score: 40, avatar: "" });
    const overview = {
      days: ["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-04", "2024-05-05", "2024-05-06", "2024-05-07"],
      score: [0, 5, -2, 0, 0, 1, 0],
      money: ["0.00", "10.00", "-3.50", "0.00", "0.00", "0.00", "0.00"],
    };
    wrap(<Overview />, "/user/account/overview", [
      [["account", "overview"], overview],
      [["module", "home"], []],
      [["notice", "preference"], DEFAULT_NOTICE_PREFERENCE],
    ]);
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(/, Ada$/);
    expect(screen.getByRole("link", { name: "Balance 12.50" })).toHaveAttribute("href", "/user/account/balance");
    expect(screen.getByRole("link", { name: "Points 40" })).toHaveAttribute("href", "/user/account/integral");

    const table = screen.getByRole("table", { name: "Points and balance changes, last 7 days" });
    const rows = within(table).getAllByRole("row").slice(1).map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toHaveLength(7);
    expect(rows[1]).toEqual(["2024-05-02", "+5", "+10.00"]);
    expect(rows[2]).toEqual(["2024-05-03", "\u22122", "\u22123.50"]);
    expect(request).not.toHaveBeenCalled();

    const toggle = screen.getByRole("button", { name: "Show as table" });
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect(table.parentElement).not.toHaveClass("sr-only");
  });

  it("shows what the enabled modules give members: a list of notices and the daily check-in", () => {
    useUserInfo.setState({ nickname: "Ada", money: "0", score: 0, avatar: "" });
    const blocks = [
      { kind: "list", module: "notice", name: "notices", title: "Notices", items: [{ id: 3, title: "Exam on Friday", body: "Room 3", time: 1_714_560_000 }] },
      { kind: "dailyPoints", module: "checkin", name: "checkin", title: "Daily check-in", points: 7, checkedIn: true },
    ];
    wrap(<Overview />, "/user/account/overview", [
      [["account", "overview"], { days: [], score: [], money: [] }],
      [["module", "home"], blocks],
      [["notice", "preference"], { ...DEFAULT_NOTICE_PREFERENCE, email: false }],
    ]);
    const notices = screen.getByRole("region", { name: "Notices" });
    expect(notices).toHaveTextContent("Exam on Friday");
    expect(notices).toHaveTextContent("Room 3");
    const checkIn = screen.getByRole("region", { name: "Daily check-in" });
    expect(checkIn).toHaveTextContent("Check in once a day for 7 points.");
    expect(within(checkIn).getByRole("button", { name: "Checked in today" })).toBeDisabled();
    // The member's own notice switches, as the server last said.
    const settings = screen.getByRole("region", { name: "Notice settings" });
    expect(within(settings).getByRole("checkbox", { name: "Also by email (when I have an email address)" })).not.toBeChecked();
    expect(within(settings).getByRole("checkbox", { name: "My exam result is published" })).toBeChecked();
    expect(request).not.toHaveBeenCalled();
  });
});

describe("the overview's chart", () => {
  it("marks its axes in round steps that hold zero", () => {
    expect(niceTicks(0, 10)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(-3.5, 10)).toEqual([0, 5, 10]);
    expect(niceTicks(-4, 4)).toEqual([-4, -2, 0, 2, 4]);
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(-40, 0)).toEqual([-40, -30, -20, -10, 0]);
    expect(niceTicks(0, 0)).toEqual([0]);
  });

  it("draws two bars a day from one zero line, the numbers still a table", () => {
    useUserInfo.setState({ nickname: "Ada", money: "0", score: 0, avatar: "" });
    const overview = { days: ["2024-05-01", "2024-05-02"], score: [4, -2], money: ["0.00", "10.00"] };
    wrap(<Overview />, "/user/account/overview", [
      [["account", "overview"], overview],
      [["module", "home"], []],
      [["notice", "preference"], DEFAULT_NOTICE_PREFERENCE],
    ]);
    const chart = screen.getByTestId("overview-chart");
    expect(chart).toHaveAttribute("aria-hidden", "true");
    expect(within(chart).getByTitle("05-02: Points -2, Balance 10.00")).toBeInTheDocument();
    expect(screen.getByRole("table", { name: "Points and balance changes, last 7 days" })).toBeInTheDocument();
  });
});

describe("the member center's data", () => {
  it("is asked for once when the router starts it and /user/loading waits for it", async () => {
    useMemberCenter.getState().reset();
    vi.mocked(request).mockImplementation(async () => ({ code: 1, msg: "", time: 0, data: { siteConfig: {}, userInfo: {}, menus: [] } }) as never);
    startMemberCenter();
    startMemberCenter();
    await memberCenterReady();
    expect(vi.mocked(request)).toHaveBeenCalledTimes(1);
    expect(useMemberCenter.getState().loaded).toBe(true);
    // Later, /user/loading asks again (a fresh balance and menus).
    await memberCenterReady();
    expect(vi.mocked(request)).toHaveBeenCalledTimes(2);
  });
});
