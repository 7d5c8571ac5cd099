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
  upload_rate_per_minute: 10,
  upload_quota_mib: 100,
  mail_password_set: true,
  sms_enabled: false,
  sms_url: "",
  sms_method: "POST",
  sms_headers: "",
  sms_body: '{"mobile": "{mobile}", "text": "{text}"}',
  sms_timeout: 10,
  sms_token_set: false,
};
let storage: Record<string, string> = { kind: "local" };
const builtinGroups = ["basic", "upload", "login", "mail", "sms"].map((name) => ({ name, title: name, builtin: true }));
let groups: { name: string; title: string; builtin: boolean }[] = builtinGroups;
let items: Record<string, unknown>[] = [];
const OUTBOX_MSG = "No mail server is set: the test email was not sent but kept in the outbox table (outbox_message)";
let answerEdit: (config: AxiosRequestConfig) => unknown;
const callsTo = (url: string) => vi.mocked(request).mock.calls.map(([c]) => c as AxiosRequestConfig).filter((c) => c.url === url);

beforeEach(() => {
  answerEdit = () => envelope(null);
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    if (config.url === `${BASE}/index`) return envelope({ config: view, storage, groups, items });
    if (config.url === `${BASE}/edit`) return answerEdit(config);
    if (config.url === `${BASE}/sendTestMail`) return { ...envelope({ sender: "outbox", delivery: "outbox" }), msg: OUTBOX_MSG };
    if (config.url === `${BASE}/sendTestSms`) throw new ApiError({ code: 0, msg: "The test text message was not sent: The SMS provider answered HTTP 401" });
    return envelope(null);
  }) as never);
});
afterEach(() => {
  vi.mocked(request).mockReset();
  storage = { kind: "local" };
  groups = builtinGroups;
  items = [];
});

function renderConfig(actions: string[] = ["index", "edit", "add", "del"]) {
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
    // Without a mail server the server says the email went to the outbox: that is what shows.
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("kept in the outbox table"));
    await userEvent.click(screen.getByRole("button", { name: "Clear cache" }));
    await waitFor(() => expect(callsTo("/admin/ajax/clearCache")).toHaveLength(1));
    expect(callsTo("/admin/ajax/clearCache")[0]!.data).toEqual({ type: "all" });
  });

  it("sets the SMS provider: a write-only token, the templates as typed, and a test text message that says why it failed", async () => {
    renderConfig();
    await userEvent.click(await screen.findByRole("tab", { name: "SMS" }));
    const form = screen.getByRole("form", { name: "SMS" });
    const token = within(form).getByLabelText("Bearer token");
    expect((token as HTMLInputElement).value).toBe("");
    expect(token.getAttribute("placeholder")).toBe("Not set");
    const url = within(form).getByLabelText("Provider address");
    await userEvent.type(url, "ftp://sms.example.com");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(url.getAttribute("aria-invalid")).toBe("true"));
    expect(within(form).getByText("Please enter an http or https address")).toBeTruthy();
    expect(callsTo(`${BASE}/edit`)).toHaveLength(0);

    await userEvent.clear(url);
    await userEvent.type(url, "https://sms.example.com/send");
    await userEvent.click(within(form).getByRole("switch", { name: "Send text messages through the provider" }));
    await userEvent.type(within(form).getByLabelText("Request headers"), "X-App: exam");
    const timeout = within(form).getByLabelText("Timeout (seconds)");
    await userEvent.clear(timeout);
    await userEvent.type(timeout, "5");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo(`${BASE}/edit`)).toHaveLength(1));
    // The token left empty is not sent (the stored one is kept); the body template goes as typed.
    expect(callsTo(`${BASE}/edit`)[0]!.data).toEqual({
      sms_enabled: true,
      sms_url: "https://sms.example.com/send",
      sms_method: "POST",
      sms_headers: "X-App: exam",
      sms_body: '{"mobile": "{mobile}", "text": "{text}"}',
      sms_timeout: 5,
    });
    await userEvent.type(token, "tok-123");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo(`${BASE}/edit`)).toHaveLength(2));
    expect(callsTo(`${BASE}/edit`)[1]!.data).toMatchObject({ sms_token: "tok-123" });
    await waitFor(() => expect((token as HTMLInputElement).value).toBe(""));

    const mobile = screen.getByLabelText("Send a test text message to");
    await userEvent.type(mobile, "12345");
    await userEvent.click(screen.getByRole("button", { name: "Send a test text message" }));
    expect(await screen.findByText("Please enter the correct mobile number")).toBeTruthy();
    expect(callsTo(`${BASE}/sendTestSms`)).toHaveLength(0);
    await userEvent.clear(mobile);
    await userEvent.type(mobile, "13800138000");
    await userEvent.click(screen.getByRole("button", { name: "Send a test text message" }));
    await waitFor(() => expect(callsTo(`${BASE}/sendTestSms`)).toHaveLength(1));
    expect(callsTo(`${BASE}/sendTestSms`)[0]!.data).toEqual({ mobile: "13800138000" });
    // The provider's refusal stays under the form, in words staff can act on.
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("The SMS provider answered HTTP 401"));
  });

  it("edits the member upload rate and quota as whole numbers, and shows the environment's S3 storage read-only", async () => {
    storage = { kind: "s3", bucket: "exam-files", region: "eu-west-1", endpoint: "https://s3.example.com", prefix: "" };
    renderConfig();
    await userEvent.click(await screen.findByRole("tab", { name: "Upload" }));
    const note = await screen.findByRole("note");
    expect(note).toHaveTextContent("exam-files");
    expect(note).toHaveTextContent("https://s3.example.com");
    expect(note).toHaveTextContent("eu-west-1");
    const form = screen.getByRole("form", { name: "Upload" });
    const rate = within(form).getByLabelText("Member uploads a minute");
    expect((rate as HTMLInputElement).value).toBe("10");
    await userEvent.clear(rate);
    await userEvent.type(rate, "2.5");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(rate.getAttribute("aria-invalid")).toBe("true"));
    expect(callsTo(`${BASE}/edit`)).toHaveLength(0);
    await userEvent.clear(rate);
    await userEvent.type(rate, "20");
    const quota = within(form).getByLabelText("Member upload space (MiB)");
    await userEvent.clear(quota);
    await userEvent.type(quota, "500");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo(`${BASE}/edit`)).toHaveLength(1));
    expect(callsTo(`${BASE}/edit`)[0]!.data).toMatchObject({ upload_rate_per_minute: 20, upload_quota_mib: 500 });
  });

  it("says the files stay on this server's disk when no S3 storage is set", async () => {
    renderConfig();
    await userEvent.click(await screen.findByRole("tab", { name: "Upload" }));
    expect(await screen.findByRole("note")).toHaveTextContent("this server's disk");
  });

  it("shows an added group as a tab with its items, checks their values by type and rule, and saves them", async () => {
    groups = [...builtinGroups, { name: "contact", title: "Contact", builtin: false }];
    items = [
      { name: "hotline", group: "contact", title: "Hotline", type: "string", value: "13800138000", options: [], rules: ["required", "mobile"], tip: "Shown to members" },
      { name: "max_retakes", group: "contact", title: "Retakes", type: "number", value: 3, options: [], rules: ["integer"], tip: "" },
      { name: "show_banner", group: "basic", title: "Banner", type: "switch", value: false, options: [], rules: [], tip: "" },
    ];
    renderConfig();
    // An item added to a built-in group is saved with that group's values.
    const basic = await screen.findByRole("form", { name: "Basic" });
    await userEvent.click(within(basic).getByRole("switch", { name: "Banner" }));
    await userEvent.click(within(basic).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo(`${BASE}/edit`)).toHaveLength(1));
    expect(callsTo(`${BASE}/edit`)[0]!.data).toEqual({ site_name: "ExamHub", record_number: "", show_banner: true });

    await userEvent.click(screen.getByRole("tab", { name: "Contact" }));
    const form = screen.getByRole("form", { name: "Contact" });
    const hotline = within(form).getByLabelText("Hotline");
    expect((hotline as HTMLInputElement).value).toBe("13800138000");
    expect(within(form).getByText("Shown to members")).toBeTruthy();
    await userEvent.clear(hotline);
    await userEvent.type(hotline, "12345");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(hotline.getAttribute("aria-invalid")).toBe("true"));
    expect(within(form).getByText("Please enter the correct mobile number")).toBeTruthy();
    expect(callsTo(`${BASE}/edit`)).toHaveLength(1);
    await userEvent.clear(hotline);
    await userEvent.type(hotline, "13900139000");
    const retakes = within(form).getByLabelText("Retakes");
    await userEvent.clear(retakes);
    await userEvent.type(retakes, "5");
    await userEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo(`${BASE}/edit`)).toHaveLength(2));
    expect(callsTo(`${BASE}/edit`)[1]!.data).toEqual({ hotline: "13900139000", max_retakes: 5 });
    // An added item can be deleted from its field; the built-in ones have no such button.
    expect(within(form).getByRole("button", { name: "Delete the item Hotline" })).toBeTruthy();
    expect(within(basic).queryByRole("button", { name: /^Delete the item Site name/ })).toBeNull();
    await userEvent.click(within(form).getByRole("button", { name: "Delete the item Hotline" }));
    await userEvent.click(await screen.findByRole("button", { name: "Delete" }));
    await waitFor(() => expect(callsTo(`${BASE}/del`)).toHaveLength(1));
    expect(callsTo(`${BASE}/del`)[0]!.data).toEqual({ name: "hotline" });
  });

  it("adds an item to the open group, checking its name first", async () => {
    groups = [...builtinGroups, { name: "contact", title: "Contact", builtin: false }];
    renderConfig();
    await userEvent.click(await screen.findByRole("tab", { name: "Contact" }));
    expect(screen.getByRole("button", { name: "Delete this group" })).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Add item" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByLabelText("Name"), "B");
    await userEvent.type(within(dialog).getByLabelText("Title"), "Help");
    await userEvent.click(within(dialog).getByRole("checkbox", { name: "Email" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Add" }));
    await waitFor(() => expect(within(dialog).getByLabelText("Name").getAttribute("aria-invalid")).toBe("true"));
    expect(callsTo(`${BASE}/add`)).toHaveLength(0);
    await userEvent.clear(within(dialog).getByLabelText("Name"));
    await userEvent.type(within(dialog).getByLabelText("Name"), "help");
    await userEvent.type(within(dialog).getByLabelText("Default value"), "a@b.co");
    await userEvent.click(within(dialog).getByRole("button", { name: "Add" }));
    await waitFor(() => expect(callsTo(`${BASE}/add`)).toHaveLength(1));
    expect(callsTo(`${BASE}/add`)[0]!.data).toEqual({ name: "help", group: "contact", title: "Help", type: "string", value: "a@b.co", options: [], rules: ["email"], tip: "" });
  }, 60_000);

  it("offers no adding or deleting of items without those rules", async () => {
    groups = [...builtinGroups, { name: "contact", title: "Contact", builtin: false }];
    items = [{ name: "hotline", group: "contact", title: "Hotline", type: "string", value: "", options: [], rules: [], tip: "" }];
    renderConfig(["index", "edit"]);
    await userEvent.click(await screen.findByRole("tab", { name: "Contact" }));
    expect(screen.getByLabelText("Hotline")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Add item" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Add group" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Delete the item Hotline" })).toBeNull();
  });

  it("offers no save, test email or clear cache without the edit rule", async () => {
    renderConfig(["index"]);
    expect(await screen.findByLabelText("Site name")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Save" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Clear cache" })).toBeNull();
  });
});
