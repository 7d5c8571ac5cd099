import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, request } from "../../src/client/api/index.ts";
import ConfigScreen from "../../src/client/admin/routine/Config.tsx";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";
import { useSiteConfig } from "../../src/client/stores/siteConfig.ts";
import { envelope } from "./crud-example.tsx";

/** The config screen: groups as forms of the shared schema, a write-only mail password, the test email, clear cache. */
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const BASE = "/admin/routine/config";
const view = {
  site_name: "ExamHub",
  record_number: "",
  upload_mode: "local",
  upload_maxsize: "10mb",
  upload_mimetype: "jpg,png",
  user_login_captcha: false,
  admin_login_captcha: true,
  mail_host: "smtp.example.com",
  mail_port: 465,
  mail_secure: true,
  mail_user: "u@example.com",
  mail_from: "",
  mail_password_set: true,
};
let answerEdit: (config: AxiosRequestConfig) => unknown;
const callsTo = (url: string) => vi.mocked(request).mock.calls.map(([c]) => c as AxiosRequestConfig).filter((c) => c.url === url);

beforeEach(() => {
  answerEdit = () => envelope(null);
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    if (config.url === `${BASE}/index`) return envelope({ config: view });
    if (config.url === `${BASE}/edit`) return answerEdit(config);
    return envelope(null);
  }) as never);
});
afterEach(() => vi.mocked(request).mockReset());

function renderConfig(actions: string[] = ["index", "edit"]) {
  useNavTabs.setState({ authNode: new Map([[BASE, actions.map((a) => `${BASE}/${a}`)]]) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[BASE]}>
          <ConfigScreen />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe("the config screen", () => {
  it("saves one group's values, checked with the shared schema", async () => {
    renderConfig();
    const name = await screen.findByLabelText("Site name");
    expect((name as HTMLInputElement).value).toBe("ExamHub");
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(name.getAttribute("aria-invalid")).toBe("true"));
    expect(callsTo(`${BASE}/edit`)).toHaveLength(0);
    await userEvent.type(name, "Exam Centre");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo(`${BASE}/edit`)).toHaveLength(1));
    expect(callsTo(`${BASE}/edit`)[0]!.data).toEqual({ site_name: "Exam Centre", record_number: "" });
    // The app's copy of the site config follows (page titles).
    await waitFor(() => expect(useSiteConfig.getState().siteName).toBe("Exam Centre"));
  });

  it("never shows the mail password, sends it only when typed, and shows the server's field message", async () => {
    renderConfig();
    await userEvent.click(await screen.findByRole("tab", { name: "Mail" }));
    const password = await screen.findByLabelText("Password");
    expect((password as HTMLInputElement).value).toBe("");
    expect(password.getAttribute("placeholder")).toBe("Set: leave empty to keep it");
    const form = screen.getByRole("form", { name: "Mail" });
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo(`${BASE}/edit`)).toHaveLength(1));
    expect(callsTo(`${BASE}/edit`)[0]!.data).not.toHaveProperty("mail_password");

    answerEdit = () => {
      throw new ApiError({ code: 0, msg: "Please enter the correct server address", data: { fields: { mail_host: "Please enter the correct server address" } } });
    };
    await userEvent.type(password, "new-secret");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo(`${BASE}/edit`)).toHaveLength(2));
    expect(callsTo(`${BASE}/edit`)[1]!.data).toMatchObject({ mail_password: "new-secret", mail_port: 465 });
    const host = screen.getByLabelText("SMTP server");
    await waitFor(() => expect(host.getAttribute("aria-invalid")).toBe("true"));
  });

  it("sends a test email to a valid address and clears the cache", async () => {
    renderConfig();
    await userEvent.click(await screen.findByRole("tab", { name: "Mail" }));
    const to = await screen.findByLabelText("Send a test email to");
    await userEvent.type(to, "nope");
    await userEvent.click(screen.getByRole("button", { name: "Send a test email" }));
    expect(await screen.findByText("Please enter the correct email address")).toBeTruthy();
    await userEvent.clear(to);
    await userEvent.type(to, "ops@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Send a test email" }));
    await waitFor(() => expect(callsTo(`${BASE}/sendTestMail`)).toHaveLength(1));
    expect(callsTo(`${BASE}/sendTestMail`)[0]!.data).toEqual({ to: "ops@example.com" });
    await userEvent.click(screen.getByRole("button", { name: "Clear cache" }));
    await waitFor(() => expect(callsTo("/admin/ajax/clearCache")).toHaveLength(1));
    expect(callsTo("/admin/ajax/clearCache")[0]!.data).toEqual({ type: "all" });
  });

  it("offers no save, test email or clear cache without the edit rule", async () => {
    renderConfig(["index"]);
    expect(await screen.findByLabelText("Site name")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Save" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Clear cache" })).toBeNull();
  });
});
