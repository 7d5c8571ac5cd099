import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import fs from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LayoutSettings } from "../../src/client/admin/LayoutSettings.tsx";
import { contrastRatio } from "../../src/shared/contrast.ts";
import { cleanLayout, defaultLayout, LAYOUT_COLOUR_VARS, LAYOUT_COLOURS, useConfig } from "../../src/client/stores/config.ts";
import { STORE_CONFIG } from "../../src/client/stores/keys.ts";

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const root = document.documentElement;
const cssVar = (name: string) => root.style.getPropertyValue(name);
const stored = () => JSON.parse(localStorage.getItem(STORE_CONFIG) ?? "{}").state;

afterEach(() => {
  useConfig.setState({ layout: defaultLayout, adminLayouts: {}, layoutOwner: 0 });
});

describe("contrast", () => {
  it("is the WCAG ratio: black on white 21:1, a colour on itself 1:1, the default primary under white text above 4.5:1", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#777", "#777777")).toBe(1);
    expect(contrastRatio("#ffffff", "#767676")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#ffffff", defaultLayout.primaryColor.light)).toBeGreaterThan(4.5);
  });
});

describe("the layout settings store", () => {
  it("sets the theme's colours as CSS custom properties on <html>, and the other theme's when the theme changes", () => {
    const s = useConfig.getState();
    expect(s.setColours("light", { primaryColor: "#7C3AED", menuBackground: "#1E293B", menuColor: "#F8FAFC" })).toEqual({ ok: true });
    expect(s.setColours("dark", { primaryColor: "#b91c1c" })).toEqual({ ok: true });
    expect(cssVar("--color-primary")).toBe("#7c3aed");
    expect(cssVar("--menu-bg")).toBe("#1e293b");
    expect(cssVar("--menu-color")).toBe("#f8fafc");
    useConfig.getState().setLayout("isDark", true);
    expect(cssVar("--color-primary")).toBe("#b91c1c");
    expect(cssVar("--menu-bg")).toBe(defaultLayout.menuBackground.dark);
    // Every colour has its property.
    for (const key of LAYOUT_COLOURS) expect(cssVar(LAYOUT_COLOUR_VARS[key])).toBe(useConfig.getState().layout[key].dark);
    expect(stored().layout.primaryColor).toEqual({ light: "#7c3aed", dark: "#b91c1c" });
  });

  it("refuses a text on a background below 4.5:1, changing nothing, and says which pair and how far", () => {
    const before = useConfig.getState().layout;
    const result = useConfig.getState().setColours("light", { menuColor: "#cbd5e1" });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems).toEqual([{ theme: "light", text: "menuColor", background: "menuBackground", ratio: expect.closeTo(1.48, 2) }]);
    // A primary that white button text cannot be read on.
    const primary = useConfig.getState().setColours("dark", { primaryColor: "#60a5fa" });
    expect(!primary.ok && primary.problems.map((p) => [p.text, p.background])).toEqual([["#ffffff", "primaryColor"]]);
    expect(useConfig.getState().layout).toBe(before);
    expect(cssVar("--menu-color")).toBe(defaultLayout.menuColor.light);
    // Both colours of the pair at once: a dark menu with light text is fine.
    expect(useConfig.getState().setColours("light", { menuColor: "#cbd5e1", menuBackground: "#0f172a" })).toEqual({ ok: true });
  });

  it("cleans a stored layout: unreadable pairs, bad colours, modes and widths fall back to the defaults", () => {
    const layout = cleanLayout({
      layoutMode: "Sideways" as never,
      menuWidth: 9999,
      primaryColor: { light: "#2563eb", dark: "#60a5fa" },
      headerBackground: { light: "red; background: url(x)", dark: "#000000" },
      headerColor: { light: "#222222", dark: "#111111" },
    });
    expect(layout.layoutMode).toBe("Default");
    expect(layout.menuWidth).toBe(defaultLayout.menuWidth);
    expect(layout.primaryColor).toEqual({ light: "#2563eb", dark: defaultLayout.primaryColor.dark });
    expect(layout.headerBackground.light).toBe("#ffffff");
    expect(layout.headerColor.light).toBe("#222222");
    // #111 on #000 is unreadable: both back to the dark defaults.
    expect([layout.headerColor.dark, layout.headerBackground.dark]).toEqual([defaultLayout.headerColor.dark, defaultLayout.headerBackground.dark]);
  });

  it("keeps each admin's layout: another admin on this browser gets their own, the first keeps the one set before", () => {
    const s = useConfig.getState();
    s.setLayout("layoutMode", "Classic");
    s.loadAdminLayout(1);
    expect(useConfig.getState().layout.layoutMode).toBe("Classic");
    useConfig.getState().setColours("light", { primaryColor: "#15803d" });
    useConfig.getState().setLayout("showTabs", false);
    useConfig.getState().setLayout("isDark", true);

    useConfig.getState().loadAdminLayout(2);
    expect(useConfig.getState().layout).toMatchObject({ layoutMode: "Default", showTabs: true, primaryColor: defaultLayout.primaryColor, isDark: true });
    useConfig.getState().setLayout("layoutMode", "Rail");
    expect(useConfig.getState().menuWidth()).toBe(64);

    useConfig.getState().loadAdminLayout(1);
    expect(useConfig.getState().layout).toMatchObject({ layoutMode: "Classic", showTabs: false, primaryColor: { light: "#15803d" } });
    expect(stored().adminLayouts["2"].layoutMode).toBe("Rail");
    expect(stored().layoutOwner).toBe(1);
  });

  it("resets the layout settings to the defaults, keeping the theme", () => {
    const s = useConfig.getState();
    s.setLayout("isDark", true);
    s.setLayout("menuWidth", 320);
    s.setColours("dark", { headerBackground: "#312e81", headerColor: "#ffffff" });
    useConfig.getState().resetLayout();
    expect(useConfig.getState().layout).toEqual({ ...defaultLayout, isDark: true });
    expect(cssVar("--header-bg")).toBe(defaultLayout.headerBackground.dark);
  });

  it("index.html sets the same properties before the first paint", () => {
    const html = fs.readFileSync("src/client/index.html", "utf8");
    for (const key of LAYOUT_COLOURS) expect(html).toContain(`${key}: "${LAYOUT_COLOUR_VARS[key]}"`);
  });
});

describe("the layout settings drawer", () => {
  const open = () =>
    render(
      <I18nProvider i18n={i18n}>
        <LayoutSettings open onOpenChange={() => {}} />
      </I18nProvider>,
    );

  it("chooses the layout mode, menu width and tab bar", async () => {
    open();
    const dialog = screen.getByRole("dialog", { name: "Layout settings" });
    await userEvent.click(within(dialog).getByRole("radio", { name: "Icon rail" }));
    expect(useConfig.getState().layout.layoutMode).toBe("Rail");
    expect(within(dialog).getByRole("slider", { name: /Menu width/ })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole("radio", { name: "Classic" }));
    fireEvent.change(within(dialog).getByRole("slider", { name: /Menu width/ }), { target: { value: "300" } });
    expect(useConfig.getState().layout).toMatchObject({ layoutMode: "Classic", menuWidth: 300 });
    await userEvent.click(within(dialog).getByRole("switch", { name: "Show the tab bar" }));
    expect(useConfig.getState().layout.showTabs).toBe(false);
  });

  it("applies a readable colour at once, holds back an unreadable one with a warning until its pair is readable", () => {
    open();
    const light = screen.getByRole("group", { name: "Light theme" });
    fireEvent.change(within(light).getByLabelText("Primary colour"), { target: { value: "#9333ea" } });
    expect(cssVar("--color-primary")).toBe("#9333ea");
    expect(screen.queryByRole("alert")).toBeNull();

    // A dark menu background under the default dark-grey text: refused, said, kept in the input.
    fireEvent.change(within(light).getByLabelText("Menu background"), { target: { value: "#1e1b4b" } });
    expect(within(light).getByRole("alert").textContent).toMatch(/^Menu text on Menu background: contrast 1\.\d\d:1, below the 4\.5:1/);
    expect(within(light).getByLabelText("Menu background")).toHaveValue("#1e1b4b");
    expect(within(light).getByLabelText("Menu background")).toHaveAttribute("aria-invalid", "true");
    expect(useConfig.getState().layout.menuBackground.light).toBe("#ffffff");
    expect(cssVar("--menu-bg")).toBe("#ffffff");

    // Light text makes the pair readable: both apply.
    fireEvent.change(within(light).getByLabelText("Menu text"), { target: { value: "#e0e7ff" } });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(useConfig.getState().layout.menuBackground.light).toBe("#1e1b4b");
    expect(cssVar("--menu-color")).toBe("#e0e7ff");

    fireEvent.click(screen.getByRole("button", { name: "Reset to defaults" }));
    expect(cssVar("--menu-bg")).toBe("#ffffff");
    expect(within(light).getByLabelText("Primary colour")).toHaveValue(defaultLayout.primaryColor.light);
  });
});
