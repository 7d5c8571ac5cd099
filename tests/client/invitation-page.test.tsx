import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError, request } from "../../src/client/api/index.ts";
import InvitationPage from "../../src/client/features/auth/InvitationPage.tsx";
import { envelope } from "./crud-example.tsx";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(() => vi.mocked(request).mockReset());

/** The router's address as the page left it. */
function Address() {
  const location = useLocation();
  return <output aria-label="address">{`${location.pathname}${location.search}${location.hash}`}</output>;
}

function renderAt(url: string) {
  render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/invitation" element={<InvitationPage />} />
          <Route path="/" element={<p>login page</p>} />
        </Routes>
        <Address />
      </MemoryRouter>
    </I18nProvider>,
  );
}

const calls = () => vi.mocked(request).mock.calls.map((c) => c[0] as AxiosRequestConfig);

describe("the invitation page", () => {
  it("sets the first password with the link's token (in the fragment, checked with a POST), then goes to the login page", async () => {
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) =>
      config.url === "/api/user/invitation/check" ? envelope({ username: "ann", nickname: "Ann" }) : envelope({ username: "ann" })) as never);
    renderAt("/invitation#token=abcdefghijklmnopqrstuvwxyz");
    expect(await screen.findByText(/Welcome, Ann/)).toBeTruthy();
    // The token is only ever in a body, never in a URL or its parameters.
    expect(calls()).toEqual([expect.objectContaining({ url: "/api/user/invitation/check", method: "post", data: { token: "abcdefghijklmnopqrstuvwxyz" } })]);
    expect(calls()[0]!.params).toBeUndefined();
    // A password the server would refuse is refused on the spot, under its field, and nothing is sent.
    await userEvent.type(screen.getByLabelText("New password"), "abc");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    expect((await screen.findByText(/A password is 6 to 32 characters/)).id).toBe(screen.getByLabelText("New password").getAttribute("aria-describedby"));
    expect(calls()).toHaveLength(1);
    await userEvent.clear(screen.getByLabelText("New password"));
    await userEvent.type(screen.getByLabelText("New password"), "secret1");
    await userEvent.type(screen.getByLabelText("Confirm password"), "secret2");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    expect((await screen.findByText("The two passwords do not match")).id).toBe(screen.getByLabelText("Confirm password").getAttribute("aria-describedby"));
    await userEvent.clear(screen.getByLabelText("Confirm password"));
    await userEvent.type(screen.getByLabelText("Confirm password"), "secret1");
    await userEvent.click(screen.getByRole("button", { name: "Set password" }));
    expect(await screen.findByText("login page")).toBeTruthy();
    const post = calls().find((c) => c.url === "/api/user/invitation");
    expect(post).toMatchObject({ method: "post", data: { token: "abcdefghijklmnopqrstuvwxyz", password: "secret1" } });
  });

  it("reads an older link's ?token= once and moves it out of the query string", async () => {
    vi.mocked(request).mockImplementation((async () => envelope({ username: "bob", nickname: "" })) as never);
    renderAt("/invitation?token=older-link-token-older-link");
    expect(await screen.findByText(/Welcome, bob/)).toBeTruthy();
    expect(screen.getByLabelText("address").textContent).toBe("/invitation#token=older-link-token-older-link");
    // Checked once, by POST, with the token the old link carried.
    expect(calls()).toEqual([expect.objectContaining({ url: "/api/user/invitation/check", method: "post", data: { token: "older-link-token-older-link" } })]);
  });

  it("says when the link was used or has expired", async () => {
    vi.mocked(request).mockImplementation((async () => {
      throw new ApiError({ code: 0, msg: "This invitation link has expired or has already been used" });
    }) as never);
    renderAt("/invitation#token=used-token-used-token-used");
    expect((await screen.findByRole("alert")).textContent).toBe("This invitation link has expired or has already been used");
    expect(screen.queryByLabelText("New password")).toBeNull();
  });
});
