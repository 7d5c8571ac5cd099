import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { IosInstallHint, InstallEntry } from "../../src/client/pwa/InstallEntry.tsx";
import { installWay, isIos, linkManifest, promptInstall, useInstallState, watchInstall } from "../../src/client/pwa/install.ts";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const IPAD_AS_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15";
const ANDROID_CHROME = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

/** The browser's install offer as Chromium fires it: `prompt()` shows its dialog, `userChoice` the answer. */
function installOffer(outcome: "accepted" | "dismissed") {
  const event = new Event("beforeinstallprompt", { cancelable: true }) as Event & { prompt: () => Promise<void>; userChoice: Promise<{ outcome: string }> };
  event.prompt = vi.fn(async () => undefined);
  event.userChoice = Promise.resolve({ outcome });
  return event;
}

/** matchMedia answering `display-mode: standalone` as given, every other query no. */
function displayMode(standalone: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: standalone && query.includes("standalone"),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

function userAgent(value: string, touchPoints = 0) {
  vi.spyOn(navigator, "userAgent", "get").mockReturnValue(value);
  vi.spyOn(navigator, "maxTouchPoints", "get").mockReturnValue(touchPoints);
}

const entry = () =>
  render(
    <I18nProvider i18n={i18n}>
      <InstallEntry />
    </I18nProvider>,
  );

let unwatch: () => void = () => undefined;
beforeEach(() => {
  useInstallState.setState({ offer: null, installed: false });
  displayMode(false);
  unwatch = watchInstall();
});
afterEach(() => {
  unwatch();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the way to install", () => {
  it.each([
    { offer: true, standalone: false, ios: false, installed: false, way: "prompt" },
    { offer: false, standalone: false, ios: true, installed: false, way: "ios" },
    { offer: false, standalone: false, ios: false, installed: false, way: "none" },
    { offer: true, standalone: true, ios: false, installed: false, way: "none" },
    { offer: false, standalone: true, ios: true, installed: false, way: "none" },
    { offer: false, standalone: false, ios: true, installed: true, way: "none" },
  ])("offer $offer, standalone $standalone, iOS $ios, installed $installed: $way", ({ offer, standalone, ios, installed, way }) => {
    const state = { offer: offer ? (installOffer("accepted") as never) : null, installed };
    expect(installWay(state, standalone, ios)).toBe(way);
  });

  it("tells iOS (an iPad says it is a Mac, with a touch screen) from other systems", () => {
    expect(isIos({ userAgent: IPHONE, maxTouchPoints: 5 })).toBe(true);
    expect(isIos({ userAgent: IPAD_AS_MAC, maxTouchPoints: 5 })).toBe(true);
    expect(isIos({ userAgent: IPAD_AS_MAC, maxTouchPoints: 0 })).toBe(false);
    expect(isIos({ userAgent: ANDROID_CHROME, maxTouchPoints: 5 })).toBe(false);
  });
});

describe("InstallEntry", () => {
  it("keeps the browser's offer and shows its dialog from the button; accepted, the button goes", async () => {
    userAgent(ANDROID_CHROME, 5);
    entry();
    expect(screen.queryByRole("button", { name: "Install the app" })).toBeNull();
    const offer = installOffer("accepted");
    act(() => void window.dispatchEvent(offer));
    // The browser's own mini-infobar is held back: the app offers the install itself.
    expect(offer.defaultPrevented).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Install the app" }));
    expect(offer.prompt).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole("button", { name: "Install the app" })).toBeNull());
    expect(useInstallState.getState().installed).toBe(true);
  });

  it("lets the offer go once used: dismissed, the button waits for the browser's next offer", async () => {
    userAgent(ANDROID_CHROME, 5);
    entry();
    act(() => void window.dispatchEvent(installOffer("dismissed")));
    await act(async () => expect(await promptInstall()).toBe("dismissed"));
    expect(screen.queryByRole("button", { name: "Install the app" })).toBeNull();
    expect(await promptInstall()).toBe("unavailable");
    act(() => void window.dispatchEvent(installOffer("accepted")));
    expect(screen.getByRole("button", { name: "Install the app" })).toBeInTheDocument();
  });

  it("hides the button once the app is installed from the browser's own menu", () => {
    userAgent(ANDROID_CHROME, 5);
    entry();
    act(() => void window.dispatchEvent(installOffer("accepted")));
    expect(screen.getByRole("button", { name: "Install the app" })).toBeInTheDocument();
    act(() => void window.dispatchEvent(new Event("appinstalled")));
    expect(screen.queryByRole("button", { name: "Install the app" })).toBeNull();
  });

  it("offers nothing in the installed app, offer or not", () => {
    userAgent(ANDROID_CHROME, 5);
    displayMode(true);
    entry();
    act(() => void window.dispatchEvent(installOffer("accepted")));
    expect(screen.queryByRole("button", { name: "Install the app" })).toBeNull();
  });

  it("explains Share, then Add to Home Screen on iOS, where there is no install dialog", () => {
    userAgent(IPHONE, 5);
    entry();
    const button = screen.getByRole("button", { name: "Install the app" });
    expect(button).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("note")).toBeNull();
    fireEvent.click(button);
    expect(button).toHaveAttribute("aria-expanded", "true");
    const hint = screen.getByRole("note");
    expect(button.getAttribute("aria-controls")).toBe(hint.id);
    expect(hint).toHaveTextContent("Tap Share in the browser's toolbar.");
    expect(hint).toHaveTextContent('Choose "Add to Home Screen", then Add.');
    fireEvent.click(button);
    expect(screen.queryByRole("note")).toBeNull();
  });

  it("says nothing on iOS once opened from the home screen", () => {
    userAgent(IPHONE, 5);
    Object.defineProperty(navigator, "standalone", { value: true, configurable: true });
    try {
      entry();
      expect(screen.queryByRole("button", { name: "Install the app" })).toBeNull();
    } finally {
      Reflect.deleteProperty(navigator, "standalone");
    }
  });

  it("renders the hint on its own with the steps in order", () => {
    render(
      <I18nProvider i18n={i18n}>
        <IosInstallHint />
      </I18nProvider>,
    );
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Tap Share in the browser's toolbar.", 'Choose "Add to Home Screen", then Add.']);
  });
});

describe("linkManifest", () => {
  it("links the manifest in the member's language", () => {
    const link = document.createElement("link");
    link.rel = "manifest";
    link.href = "/manifest.webmanifest";
    document.head.append(link);
    try {
      linkManifest("en");
      expect(link.getAttribute("href")).toBe("/manifest-en.webmanifest");
      linkManifest("zh-cn");
      expect(link.getAttribute("href")).toBe("/manifest.webmanifest");
    } finally {
      link.remove();
    }
  });
});
