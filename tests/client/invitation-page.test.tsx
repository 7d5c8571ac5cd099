import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError, request } from "../../src/client/api/index.ts";
import InvitationPage from "../../src/client/features/auth/InvitationPage.tsx";
import { envelope } from "./crud-example.tsx";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(() => vi.mocked(request).mockReset());

function renderAt(url: string) {
  render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/invitation" element={<InvitationPage />} />
          <Route path="/" element={<p>login page</p>} />
        </Routes>
      </MemoryRouter>
    </I18nProvider>,
  );
}

describe("the invitation page", () => {
  it("sets the first password with the link's token, then goes to the login page", async () => {
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) =>
      config.method === "get" ? envelope({ username: "ann", nickname: "Ann" }) : envelope({ username: "ann" })) as never);
    renderAt("/invitation?token=abcdefghijklmnopqrstuvwxyz");
    expect(await screen.findByText(/Welcome, Ann/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText("New password"), "secret1");
    await userEvent.type(screen.getByLabelText("Confirm password"), "secret2");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    expect(screen.getByText("The two passwords are not the same")).toBeTruthy();
    await userEvent.clear(screen.getByLabelText("Confirm password"));
    await userEvent.type(screen.getByLabelText("Confirm password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    expect(await screen.findByText("login page")).toBeTruthy();
    const post = vi.mocked(request).mock.calls.map((c) => c[0] as AxiosRequestConfig).find((c) => c.method === "post");
    expect(post).toMatchObject({ url: "/api/user/invitation", data: { token: "abcdefghijklmnopqrstuvwxyz", password: "secret1" } });
  });

  it("says when the link was used or has expired", async () => {
    vi.mocked(request).mockImplementation((async () => {
      throw new ApiError({ code: 0, msg: "This invitation link has expired or has already been used" });
    }) as never);
    renderAt("/invitation?token=used-token-used-token-used");
    expect((await screen.findByRole("alert")).textContent).toBe("This invitation link has expired or has already been used");
    expect(screen.queryByLabelText("New password")).toBeNull();
  });
});
