import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import AdminProfilePage, { OwnPasswordForm, OwnProfileForm, type OwnProfile } from "../../src/client/admin/profile/AdminProfile.tsx";
import { ApiError, request } from "../../src/client/api/index.ts";
import { useAdminInfo } from "../../src/client/stores/adminInfo.ts";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";
import { defaultSiteConfig, useSiteConfig } from "../../src/client/stores/siteConfig.ts";
import { envelope } from "./crud-example.tsx";

/** The admin's own account screen: profile with avatar upload, and password. */
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const profile: OwnProfile = { id: 5, username: "teacher", nickname: "Teacher", avatar: "", email: null, mobile: null, motto: "", last_login_time: null };

const calls = () => vi.mocked(request).mock.calls.map(([config]) => config as AxiosRequestConfig);
const callsTo = (url: string) => calls().filter((c) => c.url === url);
let answers: Record<string, (config: AxiosRequestConfig) => unknown>;

beforeEach(() => {
  useSiteConfig.setState({ upload: { ...defaultSiteConfig.upload, maxsize: "10mb", mimetype: "jpg,png,gif,webp,svg,pdf" } });
  useAdminInfo.setState({ id: 5, username: "teacher", nickname: "Teacher", avatar: "", token: "access", refresh_token: "refresh" });
  answers = {
    "/admin/account/profile": (config) => envelope({ profile: config.method === "post" ? { ...profile, ...(config.data as object) } : profile }),
    "/admin/ajax/upload": (config) => {
      const file = (config.data as FormData).get("file") as File;
      const topic = String((config.data as FormData).get("topic"));
      return envelope({ file: { id: 1, url: `/storage/${topic}/20261128/abc.${file.name.split(".").pop()}`, name: file.name, size: file.size, mimetype: file.type } });
    },
  };
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => (answers[config.url ?? ""] ?? (() => envelope(null)))(config)) as never);
});
afterEach(() => vi.mocked(request).mockReset());

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function wrap(ui: ReactNode, path = "/admin/profile") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/admin/profile" element={ui} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

const image = (name: string, type: string, bytes = 64) => new File([new Uint8Array(bytes)], name, { type });

describe("the profile form", () => {
  it("uploads a chosen avatar to the avatar topic, shows it at once and saves it with the rest", async () => {
    wrap(<OwnProfileForm profile={profile} />);
    await userEvent.upload(screen.getByLabelText("Upload avatar"), image("me.png", "image/png"));
    await waitFor(() => expect(screen.getByRole("img", { name: "Avatar" })).toHaveAttribute("src", "/storage/avatar/20261128/abc.png"));
    expect((callsTo("/admin/ajax/upload")[0]!.data as FormData).get("topic")).toBe("avatar");
    expect(callsTo("/admin/account/profile")).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText("Nickname"));
    await userEvent.type(screen.getByLabelText("Nickname"), "Ms Wang");
    await userEvent.type(screen.getByLabelText("Email"), "wang@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(callsTo("/admin/account/profile")).toHaveLength(1));
    expect(callsTo("/admin/account/profile")[0]).toMatchObject({
      method: "post",
      data: { nickname: "Ms Wang", email: "wang@example.com", mobile: "", avatar: "/storage/avatar/20261128/abc.png", motto: "" },
    });
    // The header's name and picture follow.
    await waitFor(() => expect(useAdminInfo.getState()).toMatchObject({ nickname: "Ms Wang", avatar: "/storage/avatar/20261128/abc.png" }));
  });

  it.each([
    { file: image("me.svg", "image/svg+xml"), message: "The type of uploaded file is not allowed!" },
    { file: image("cv.pdf", "application/pdf"), message: "Please choose an image" },
    { file: image("big.png", "image/png", 3 * 1024 * 1024), message: "The size of the uploaded file exceeds the allowed range!" },
  ])("refuses $file.name before sending it: $message", async ({ file, message }) => {
    wrap(<OwnProfileForm profile={profile} />);
    await userEvent.upload(screen.getByLabelText("Upload avatar"), file, { applyAccept: false });
    expect(await screen.findByRole("alert")).toHaveTextContent(message);
    expect(callsTo("/admin/ajax/upload")).toHaveLength(0);
  });

  it("checks the fields with the server's rules and sends nothing while one is wrong", async () => {
    wrap(<OwnProfileForm profile={profile} />);
    await userEvent.type(screen.getByLabelText("Email"), "not-an-email");
    await userEvent.type(screen.getByLabelText("Mobile"), "123");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByLabelText("Email")).toHaveAccessibleDescription("Please enter the correct email address"));
    expect(screen.getByLabelText("Mobile")).toHaveAccessibleDescription("Please enter the correct mobile number");
    expect(callsTo("/admin/account/profile")).toHaveLength(0);
  });

  it("shows a field the server refused beside it", async () => {
    answers["/admin/account/profile"] = () => {
      throw new ApiError({ code: 0, msg: "The nickname is at most 50 characters", data: { fields: { nickname: "The nickname is at most 50 characters" } } });
    };
    wrap(<OwnProfileForm profile={profile} />);
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.getByLabelText("Nickname")).toHaveAccessibleDescription("The nickname is at most 50 characters"));
    expect(useAdminInfo.getState().nickname).toBe("Teacher");
  });
});

describe("the password form", () => {
  async function fill(oldPassword: string, newPassword: string, confirm = newPassword) {
    if (oldPassword) await userEvent.type(screen.getByLabelText("Old password"), oldPassword);
    await userEvent.type(screen.getByLabelText("New password"), newPassword);
    await userEvent.type(screen.getByLabelText("Confirm new password"), confirm);
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
  }

  it("holds the new password to the SPEC rule and its confirmation, before sending", async () => {
    wrap(<OwnPasswordForm username="teacher" />);
    await fill("", "short", "other");
    await waitFor(() => expect(screen.getByLabelText("Old password")).toHaveAccessibleDescription("Required"));
    expect(screen.getByLabelText("New password")).toHaveAccessibleDescription(`A password is 6 to 32 characters, without & < > " or '`);
    expect(screen.getByLabelText("Confirm new password")).toHaveAccessibleDescription("The two passwords do not match");
    expect(callsTo("/admin/account/changePassword")).toHaveLength(0);
  });

  it("says a wrong old password and keeps the admin signed in", async () => {
    answers["/admin/account/changePassword"] = () => {
      throw new ApiError({ code: 0, msg: "The old password is wrong" });
    };
    wrap(<OwnPasswordForm username="teacher" />);
    await fill("not-it-1", "brand-new-1");
    expect(await screen.findByRole("alert")).toHaveTextContent("The old password is wrong");
    expect(useAdminInfo.getState().token).toBe("access");
    expect(screen.queryByTestId("where")).toBeNull();
  });

  it("on success drops the tokens and opens the login page", async () => {
    wrap(<OwnPasswordForm username="teacher" />);
    await fill("old-pass-1", "brand-new-1");
    expect(await screen.findByTestId("where")).toHaveTextContent("/admin/login");
    expect(callsTo("/admin/account/changePassword")[0]!.data).toEqual({ oldPassword: "old-pass-1", newPassword: "brand-new-1" });
    expect(useAdminInfo.getState()).toMatchObject({ token: "", refresh_token: "" });
  });
});

describe("the account screen", () => {
  it("waits for the back office's data when opened directly", async () => {
    useNavTabs.setState({ loaded: false });
    wrap(<AdminProfilePage />);
    const where = await screen.findByTestId("where");
    expect(decodeURIComponent(where.textContent ?? "")).toContain("/admin/loading/");
    expect(decodeURIComponent(where.textContent ?? "")).toContain("/admin/profile");
  });

  it("shows the profile and the password forms once loaded", async () => {
    useNavTabs.setState({ loaded: true });
    wrap(<AdminProfilePage />);
    expect(await screen.findByRole("heading", { name: "My account" })).toBeInTheDocument();
    expect(screen.getByRole("form", { name: "Profile" })).toBeInTheDocument();
    expect(screen.getByRole("form", { name: "Change password" })).toBeInTheDocument();
    expect(screen.getByLabelText("Nickname")).toHaveValue("Teacher");
    expect(screen.getByText("teacher")).toBeInTheDocument();
  });
});
