import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MemberAvatar } from "../../src/client/app/layouts/MemberAvatar.tsx";
import PhoneMenuSheet from "../../src/client/app/layouts/PhoneMenuSheet.tsx";
import { useInstallState } from "../../src/client/pwa/install.ts";
import { useSiteConfig } from "../../src/client/stores/siteConfig.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

afterEach(() => {
  useUserInfo.getState().clear();
  useInstallState.setState({ offer: null, installed: false });
  vi.restoreAllMocks();
});

const wrap = (ui: React.ReactNode) =>
  render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter>{ui}</MemoryRouter>
    </I18nProvider>,
  );

describe("the member's avatar in the menus", () => {
  it("shows the uploaded avatar from the site's CDN, the person icon without one or when it fails to load", () => {
    useSiteConfig.setState({ cdnUrl: "https://cdn.example.com" });
    useUserInfo.setState({ id: 3, token: "t", avatar: "/storage/avatar/3.png" });
    const { container, rerender } = wrap(<MemberAvatar />);
    const img = container.querySelector("img")!;
    expect(img).toHaveAttribute("src", "https://cdn.example.com/storage/avatar/3.png");
    // Decorative: the member's name beside it says who it is.
    expect(img).toHaveAttribute("alt", "");
    fireEvent.error(img);
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("svg")).not.toBeNull();
    useUserInfo.setState({ avatar: "" });
    rerender(
      <I18nProvider i18n={i18n}>
        <MemoryRouter>
          <MemberAvatar />
        </MemoryRouter>
      </I18nProvider>,
    );
    expect(container.querySelector("img")).toBeNull();
    useSiteConfig.setState({ cdnUrl: "" });
  });

  it("puts the avatar beside the name and the install entry in the phone menu", () => {
    useUserInfo.setState({ id: 3, token: "t", nickname: "Lin", avatar: "/storage/avatar/3.png" });
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1");
    wrap(<PhoneMenuSheet open onOpenChange={() => undefined} close={() => undefined} />);
    const dialog = screen.getByRole("dialog", { name: "Menu" });
    const name = screen.getByText("Lin");
    expect(name.parentElement!.querySelector("img")).toHaveAttribute("src", "/storage/avatar/3.png");
    expect(dialog).toContainElement(screen.getByRole("button", { name: "Install the app" }));
  });
});
