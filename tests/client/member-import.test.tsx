import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError, request } from "../../src/client/api/index.ts";
import { InviteDialog, MemberImportDialog } from "../../src/client/admin/user/MemberSheet.tsx";
import { toast } from "../../src/client/ui/toast.ts";
import { envelope, renderWith } from "./crud-example.tsx";

vi.mock("../../src/client/ui/toast.ts", () => ({ toast: { success: vi.fn(), message: vi.fn(), error: vi.fn() } }));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(() => {
  vi.mocked(request).mockReset();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.message).mockClear();
});

const calls = () => vi.mocked(request).mock.calls.map((c) => c[0] as AxiosRequestConfig);
const sent = () => calls().filter((c) => c.url === "/admin/user/user/import").map((c) => c.data as { name: string; data: string; confirm: boolean });

const clean = {
  add: 1,
  update: 1,
  unchanged: 3,
  errorCount: 0,
  errors: [],
  preview: [
    { line: 2, username: "ann", nickname: "Ann", action: "add", password: "invite" },
    { line: 3, username: "bob", nickname: "Bob", action: "update", password: "kept" },
  ],
  imported: 0,
};

const file = () => new File(["username,nickname\nann,Ann\n"], "members.csv", { type: "text/csv" });

describe("the member import dialog", () => {
  it("checks the file first (a dry run), shows what would change, then imports on confirm", async () => {
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
      const body = config.data as { confirm: boolean };
      return envelope(body.confirm ? { ...clean, imported: 2, invited: 1, kept: 0 } : clean);
    }) as never);
    const onDone = vi.fn();
    renderWith(<MemberImportDialog onDone={onDone} />);
    expect(screen.queryByRole("button", { name: /^Import/ })).toBeNull();
    await userEvent.upload(screen.getByLabelText(/File \(\.xlsx or UTF-8 \.csv/), file());
    await userEvent.click(screen.getByRole("button", { name: "Check the file" }));
    expect((await screen.findByTestId("member-import-counts")).textContent).toBe("To add: 1; to update: 1; unchanged: 3; rows with problems: 0.");
    const rows = within(screen.getByRole("table")).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(["2annAnnAddInvitation email", "3bobBobUpdateKept"]);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]).toMatchObject({ name: "members.csv", confirm: false });
    expect(atob(sent()[0]!.data)).toBe("username,nickname\nann,Ann\n");

    await userEvent.click(screen.getByRole("button", { name: "Import: add 1, update 1" }));
    expect((await screen.findByRole("status")).textContent).toContain("2 members imported; invitations sent: 1.");
    expect(screen.queryByTestId("member-import-kept")).toBeNull();
    expect(sent().map((b) => b.confirm)).toEqual([false, true]);
    await userEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(onDone).toHaveBeenCalled();
  });

  it("says so when the invitations were only kept in the outbox table (no mail server or SMS provider)", async () => {
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
      const body = config.data as { confirm: boolean };
      return envelope(body.confirm ? { ...clean, imported: 2, invited: 1, kept: 1 } : clean);
    }) as never);
    renderWith(<MemberImportDialog onDone={vi.fn()} />);
    await userEvent.upload(screen.getByLabelText(/File \(\.xlsx or UTF-8 \.csv/), file());
    await userEvent.click(screen.getByRole("button", { name: "Check the file" }));
    await userEvent.click(await screen.findByRole("button", { name: "Import: add 1, update 1" }));
    expect((await screen.findByRole("status")).textContent).toContain("2 members imported; invitations sent: 0.");
    expect(screen.getByTestId("member-import-kept").textContent).toBe(
      "1 invitation was not sent: no mail server or SMS provider is set, so it was only kept in the outbox table (outbox_message).",
    );
  });

  it("lists every bad row and offers no import", async () => {
    vi.mocked(request).mockImplementation((async () =>
      envelope({ ...clean, add: 0, update: 0, unchanged: 0, preview: [], errorCount: 2, errors: [{ line: 3, message: "Row 3: duty X does not exist" }, { line: 5, message: "Row 5: the username ann is also in row 2" }] })) as never);
    renderWith(<MemberImportDialog onDone={vi.fn()} />);
    await userEvent.upload(screen.getByLabelText(/File \(\.xlsx or UTF-8 \.csv/), file());
    await userEvent.click(screen.getByRole("button", { name: "Check the file" }));
    const list = await screen.findByTestId("import-errors");
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Row 3: duty X does not exist", "Row 5: the username ann is also in row 2"]);
    expect(screen.queryByRole("button", { name: /^Import/ })).toBeNull();
  });

  it("shows the server's refusal of a bad file", async () => {
    vi.mocked(request).mockImplementation((async () => {
      throw new ApiError({ code: 0, msg: "The file is not a spreadsheet (.xlsx or .csv)" });
    }) as never);
    renderWith(<MemberImportDialog onDone={vi.fn()} />);
    await userEvent.upload(screen.getByLabelText(/File \(\.xlsx or UTF-8 \.csv/), file());
    await userEvent.click(screen.getByRole("button", { name: "Check the file" }));
    expect(await screen.findByText("The file is not a spreadsheet (.xlsx or .csv)")).toBeTruthy();
    expect(screen.queryByTestId("member-import-counts")).toBeNull();
  });
});

describe("the resend invitation dialog", () => {
  it("sends the member's invitation again", async () => {
    vi.mocked(request).mockImplementation((async () => ({ ...envelope({ sent: 1, kept: 0 }), msg: "The invitation was sent" })) as never);
    const onDone = vi.fn();
    renderWith(<InviteDialog row={{ id: 9, username: "ann", nickname: "Ann", email: "ann@example.com" }} onDone={onDone} />);
    expect(screen.getByText(/Email Ann \(ann@example.com\) a link/)).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Send invitation" }));
    expect(calls()[0]).toMatchObject({ url: "/admin/user/user/invite", method: "post", data: { id: 9 } });
    expect(onDone).toHaveBeenCalled();
    expect(toast.success).toHaveBeenCalledWith("The invitation was sent");
  });

  it("says an invitation only kept in the outbox table was not sent (a notice, not a success)", async () => {
    vi.mocked(request).mockImplementation((async () => ({ ...envelope({ sent: 0, kept: 1 }), msg: "The invitation was sent" })) as never);
    const onDone = vi.fn();
    renderWith(<InviteDialog row={{ id: 9, username: "ann", email: "ann@example.com" }} onDone={onDone} />);
    await userEvent.click(screen.getByRole("button", { name: "Send invitation" }));
    expect(onDone).toHaveBeenCalled();
    expect(toast.message).toHaveBeenCalledWith("No mail server or SMS provider is set: the invitation was not sent but kept in the outbox table (outbox_message)");
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("offers a text message to a member with a mobile and no email, and shows the server's refusal when no SMS provider is set", async () => {
    const refusal = "The invitation cannot be delivered: there is no email, and no SMS provider is set to text the mobile";
    vi.mocked(request).mockImplementation((async () => {
      throw new ApiError({ code: 0, msg: refusal });
    }) as never);
    const onDone = vi.fn();
    renderWith(<InviteDialog row={{ id: 9, username: "ann", email: "", mobile: "13800138000" }} onDone={onDone} />);
    expect(screen.getByText(/Text ann \(13800138000\) a link to set their password\? ann has no email, so it goes by text message/)).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Send invitation" }));
    expect(calls()[0]).toMatchObject({ url: "/admin/user/user/invite", method: "post", data: { id: 9 } });
    expect(await screen.findByText(refusal)).toBeTruthy();
    expect(onDone).not.toHaveBeenCalled();
  });

  it("says a member with neither an email nor a mobile cannot be invited", () => {
    renderWith(<InviteDialog row={{ id: 9, username: "ann", email: "", mobile: null }} onDone={vi.fn()} />);
    expect(screen.getByRole("alert").textContent).toBe("The invitation cannot be delivered: ann has neither an email nor a mobile. Add one before sending an invitation.");
    expect(screen.queryByRole("button", { name: "Send invitation" })).toBeNull();
  });
});
