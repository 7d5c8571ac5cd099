import { act, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { activateLanguage, i18n } from "../../src/client/i18n/index.ts";
import { OfflineBanner } from "../../src/client/ui/OfflineBanner.tsx";

function setOnline(online: boolean) {
  vi.spyOn(navigator, "onLine", "get").mockReturnValue(online);
  window.dispatchEvent(new Event(online ? "online" : "offline"));
}

describe("OfflineBanner", () => {
  beforeEach(() => setOnline(true));
  afterEach(() => vi.restoreAllMocks());

  it("says 'You are disconnected!' only while offline, in the active language", async () => {
    await activateLanguage("en");
    render(
      <I18nProvider i18n={i18n}>
        <OfflineBanner />
      </I18nProvider>,
    );
    expect(screen.queryByRole("status")).toBeNull();
    act(() => setOnline(false));
    expect(screen.getByRole("status")).toHaveTextContent("You are disconnected!");
    act(() => setOnline(true));
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("speaks zh-cn by default", async () => {
    await activateLanguage("zh-cn");
    setOnline(false);
    render(
      <I18nProvider i18n={i18n}>
        <OfflineBanner />
      </I18nProvider>,
    );
    expect(screen.getByRole("status")).toHaveTextContent("您已断开网络连接！");
  });
});
