import { msg } from "@lingui/core/macro";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activateLanguage, changeLanguage, i18n, loadAdminCatalog, onLanguageChange, storedLanguage } from "../../src/client/i18n/index.ts";
import { MessagesProvider } from "../../src/client/i18n/MessagesProvider.tsx";
import { LanguageSwitch } from "../../src/client/ui/LanguageSwitch.tsx";
import { STORE_CONFIG } from "../../src/client/stores/keys.ts";
import { useConfig } from "../../src/client/stores/config.ts";

describe("language choice", () => {
  afterEach(async () => {
    localStorage.clear();
    await useConfig.persist.rehydrate();
    vi.restoreAllMocks();
  });

  it("defaults to zh-cn and falls back to it for unknown stored values", async () => {
    expect(storedLanguage()).toBe("zh-cn");
    localStorage.setItem(STORE_CONFIG, JSON.stringify({ state: { lang: { defaultLang: "fr" } }, version: 0 }));
    await useConfig.persist.rehydrate();
    expect(storedLanguage()).toBe("zh-cn");
  });

  it("stores the choice and shows the page in it without reloading, the area catalogs it had included", async () => {
    await activateLanguage("zh-cn");
    await loadAdminCatalog();
    const reload = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, reload } as Location);
    const changes: string[] = [];
    // The phone menu closes once the page is in the new language.
    const changed = vi.fn();
    const stop = onLanguageChange((language) => changes.push(language));
    render(
      <MessagesProvider i18n={i18n}>
        <LanguageSwitch showLabel onChanged={changed} />
      </MessagesProvider>,
    );
    expect(screen.getByText("语言")).toBeInTheDocument();
    expect(i18n._(msg`Open pages`)).toBe("已打开的页面");

    fireEvent.change(screen.getByRole("combobox"), { target: { value: "en" } });
    expect(await screen.findByText("Language")).toBeInTheDocument();
    expect(screen.getByRole("combobox")).toHaveValue("en");
    expect(changed).toHaveBeenCalledOnce();
    expect(reload).not.toHaveBeenCalled();
    expect(JSON.parse(localStorage.getItem(STORE_CONFIG)!).state.lang.defaultLang).toBe("en");
    expect(storedLanguage()).toBe("en");
    expect(document.documentElement.lang).toBe("en");
    // The back office's catalog, loaded before the change, is there in the new language.
    expect(i18n._(msg`Open pages`)).toBe("Open pages");
    expect(changes).toEqual(["en"]);

    // Choosing the language already shown changes nothing.
    await changeLanguage("en");
    expect(changes).toEqual(["en"]);
    stop();
    await act(() => changeLanguage("zh-cn"));
    expect(screen.getByText("语言")).toBeInTheDocument();
    expect(changes).toEqual(["en"]);
  });
});
