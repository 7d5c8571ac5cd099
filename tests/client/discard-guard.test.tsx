import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { useForm } from "react-hook-form";
import { createMemoryRouter, Link, Outlet, RouterProvider } from "react-router-dom";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import ConfigScreen from "../../src/client/admin/routine/Config.tsx";
import { TabBar } from "../../src/client/admin/TabBar.tsx";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";
import { useDirtyForm } from "../../src/client/ui/discardGuard.tsx";
import { confirmLeave, LeaveGuard, pageHasUnsavedChanges } from "../../src/client/ui/leaveGuard.tsx";
import { envelope, grant, memberRows, renderScreen } from "./crud-example.tsx";

/** Asking before typed work is thrown away: the add/edit dialogs, the config screen's groups, leaving a page. */
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const callsTo = (url: string) => vi.mocked(request).mock.calls.map(([c]) => c as AxiosRequestConfig).filter((c) => c.url === url);

beforeEach(() => {
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    if (config.url === "/admin/user/user/index") return envelope({ list: memberRows(3), total: 3 });
    if (config.url === "/admin/user/group/index") return envelope({ list: [], total: 0 });
    if (config.url === "/admin/routine/config/index") {
      return envelope({
        config: {
          site_name: "ExamHub",
          record_number: "",
          upload_mode: "local",
          upload_maxsize: "10mb",
          upload_mimetype: "jpg,png",
          upload_rate_per_minute: 10,
          upload_quota_mib: 100,
          user_login_captcha: false,
          admin_login_captcha: true,
          mail_host: "",
          mail_port: 465,
          mail_secure: true,
          mail_user: "",
          mail_from: "",
          mail_password_set: false,
        },
      });
    }
    return envelope(null);
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

describe("an add/edit dialog with unsaved changes", () => {
  it("closes at once on Escape while nothing was typed", async () => {
    await openAdd();
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("asks on Escape; keep editing (the focused answer) keeps the values, discard closes", async () => {
    const dialog = await openAdd();
    await userEvent.type(within(dialog).getByLabelText("Username"), "dave");
    await userEvent.keyboard("{Escape}");
    const ask = await screen.findByRole("alertdialog", { name: "Discard changes?" });
    const keep = within(ask).getByRole("button", { name: "Keep editing" });
    await waitFor(() => expect(document.activeElement).toBe(keep));
    await userEvent.click(keep);
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    const still = screen.getByRole("dialog", { name: /Add/ });
    expect((within(still).getByLabelText("Username") as HTMLInputElement).value).toBe("dave");

    // Escape in the question is "keep editing" too.
    await userEvent.keyboard("{Escape}");
    await screen.findByRole("alertdialog");
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(screen.getByRole("dialog", { name: /Add/ })).toBeTruthy();

    await userEvent.keyboard("{Escape}");
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Discard" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(callsTo("/admin/user/user/add")).toHaveLength(0);
  });

  it("asks on × and on Cancel", async () => {
    const dialog = await openAdd();
    await userEvent.type(within(dialog).getByLabelText("Username"), "dave");
    await userEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Keep editing" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    await userEvent.click(within(screen.getByRole("dialog", { name: /Add/ })).getByRole("button", { name: "Cancel" }));
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Discard" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("closes at once when what was typed has been taken back", async () => {
    const dialog = await openAdd();
    const username = within(dialog).getByLabelText("Username");
    await userEvent.type(username, "d");
    await userEvent.clear(username);
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("does not ask when saving closes it", async () => {
    const dialog = await openAdd();
    await userEvent.type(within(dialog).getByLabelText("Username"), "dave");
    await userEvent.type(within(dialog).getByLabelText("Password"), "secret1");
    await userEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo("/admin/user/user/add")).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(pageHasUnsavedChanges()).toBe(false);
  });
});

describe("the config screen's groups", () => {
  it("keep what was typed in each group when switching tabs, and count as unsaved work until saved", async () => {
    useNavTabs.setState({ authNode: new Map([["/admin/routine/config", ["index", "edit"].map((a) => `/admin/routine/config/${a}`)]]) });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = createMemoryRouter([{ path: "*", element: <ConfigScreen /> }], { initialEntries: ["/admin/routine/config"] });
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </I18nProvider>,
    );
    const name = await screen.findByLabelText("Site name");
    await userEvent.clear(name);
    await userEvent.type(name, "Exam Centre");
    expect(pageHasUnsavedChanges()).toBe(true);
    await userEvent.click(screen.getByRole("tab", { name: "Upload" }));
    expect(screen.queryByRole("form", { name: "Basic" })).toBeNull();
    const size = within(screen.getByRole("form", { name: "Upload" })).getByLabelText("Largest file");
    await userEvent.clear(size);
    await userEvent.type(size, "20mb");
    await userEvent.click(screen.getByRole("tab", { name: "Basic" }));
    expect((within(screen.getByRole("form", { name: "Basic" })).getByLabelText("Site name") as HTMLInputElement).value).toBe("Exam Centre");
    await userEvent.click(screen.getByRole("tab", { name: "Upload" }));
    expect((within(screen.getByRole("form", { name: "Upload" })).getByLabelText("Largest file") as HTMLInputElement).value).toBe("20mb");

    // Saving a group sends only its own values and leaves the other group's typing in place.
    await userEvent.click(within(screen.getByRole("form", { name: "Upload" })).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo("/admin/routine/config/edit")).toHaveLength(1));
    expect(callsTo("/admin/routine/config/edit")[0]!.data).toEqual({ upload_mode: "local", upload_maxsize: "20mb", upload_mimetype: "jpg,png", upload_rate_per_minute: 10, upload_quota_mib: 100 });
    await userEvent.click(screen.getByRole("tab", { name: "Basic" }));
    expect((screen.getByLabelText("Site name") as HTMLInputElement).value).toBe("Exam Centre");
    expect(pageHasUnsavedChanges()).toBe(true);
  });
});

/** A page with a form that reports its changes, and a link away. */
function FormPage() {
  const form = useForm({ defaultValues: { note: "" } });
  useDirtyForm(form.formState.isDirty);
  return (
    <>
      <label>
        Note
        <input {...form.register("note")} />
      </label>
      <Link to="/elsewhere">Elsewhere</Link>
      <Link to="?page=2">Next page</Link>
    </>
  );
}

function renderPages() {
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <TabBar />
            <Outlet />
            <LeaveGuard />
          </>
        ),
        children: [
          { path: "/form", element: <FormPage /> },
          { path: "/elsewhere", element: <p>Somewhere else</p> },
          { path: "/admin", element: <p>Dashboard</p> },
        ],
      },
    ],
    { initialEntries: ["/form"] },
  );
  render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
  return router;
}

describe("leaving a page with unsaved changes", () => {
  it("asks before a route change to another page; keep editing stays, discard goes", async () => {
    const router = renderPages();
    // Nothing typed: the link goes at once.
    await userEvent.click(screen.getByRole("link", { name: "Elsewhere" }));
    await screen.findByText("Somewhere else");
    await act(() => router.navigate("/form"));

    await userEvent.type(screen.getByLabelText("Note"), "half a thought");
    // The same page with another query string is not leaving it.
    await userEvent.click(screen.getByRole("link", { name: "Next page" }));
    await waitFor(() => expect(router.state.location.search).toBe("?page=2"));
    expect(screen.queryByRole("alertdialog")).toBeNull();

    await userEvent.click(screen.getByRole("link", { name: "Elsewhere" }));
    await userEvent.click(within(await screen.findByRole("alertdialog", { name: "Discard changes?" })).getByRole("button", { name: "Keep editing" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(router.state.location.pathname).toBe("/form");
    expect((screen.getByLabelText("Note") as HTMLInputElement).value).toBe("half a thought");

    await userEvent.click(screen.getByRole("link", { name: "Elsewhere" }));
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Discard" }));
    await screen.findByText("Somewhere else");
    expect(pageHasUnsavedChanges()).toBe(false);
  });

  it("asks when the browser tab is closed or reloaded", async () => {
    renderPages();
    const unload = () => {
      const event = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await userEvent.type(screen.getByLabelText("Note"), "x");
    expect(unload()).toBe(true);
  });

  it("asks before closing the open page's tab, and keeps the tab when the answer is keep editing", async () => {
    useNavTabs.setState({ tabs: [{ path: "/form", search: "" }] as never, routes: [{ path: "/form", title: "Form" }] as never });
    const router = renderPages();
    await userEvent.type(screen.getByLabelText("Note"), "x");
    await userEvent.click(screen.getByRole("button", { name: "Close Form" }));
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Keep editing" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(screen.getAllByTestId("admin-tab")).toHaveLength(1);
    expect(router.state.location.pathname).toBe("/form");

    await userEvent.click(screen.getByRole("button", { name: "Close Form" }));
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Discard" }));
    await screen.findByText("Dashboard");
    // Asked once: the navigation that followed "discard" went through.
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(useNavTabs.getState().tabs).toHaveLength(0);
  });

  it("confirmLeave goes at once while nothing is unsaved, and only after discard otherwise", async () => {
    renderPages();
    const leave = vi.fn();
    confirmLeave(leave);
    expect(leave).toHaveBeenCalledTimes(1);
    await userEvent.type(screen.getByLabelText("Note"), "x");
    confirmLeave(leave);
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Keep editing" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(leave).toHaveBeenCalledTimes(1);
    confirmLeave(leave);
    await userEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Discard" }));
    expect(leave).toHaveBeenCalledTimes(2);
  });
});
