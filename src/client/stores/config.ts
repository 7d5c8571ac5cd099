import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import {
  DEFAULT_LANGUAGE,
  FALLBACK_LANGUAGE,
  LANGUAGES,
  MENU_WIDTH,
  MENU_WIDTH_COLLAPSED,
  resolveLanguage,
  type Language,
} from "../../shared/constants.ts";
import { AA_CONTRAST, contrastRatio, isHexColour } from "../../shared/contrast.ts";
import { STORE_CONFIG } from "./keys.ts";

/**
 * Default: the menu and the page as floating cards; Classic: flush panels with borders; Rail:
 * the menu always as a narrow column of icons (titles as tooltips), for the most room.
 */
export const LAYOUT_MODES = ["Default", "Classic", "Rail"] as const;
export type LayoutMode = (typeof LAYOUT_MODES)[number];

export type Theme = "light" | "dark";
export type ThemeColours = { light: string; dark: string };

/** The colours an admin can choose, each for the light and the dark theme. */
export const LAYOUT_COLOURS = ["primaryColor", "menuBackground", "menuColor", "menuActiveBackground", "menuActiveColor", "headerBackground", "headerColor"] as const;
export type LayoutColour = (typeof LAYOUT_COLOURS)[number];

/**
 * The CSS custom property each colour sets on <html> for the theme in use (styles.css holds the
 * defaults; index.html sets the stored ones before the first paint with the same names).
 */
export const LAYOUT_COLOUR_VARS: Record<LayoutColour, string> = {
  primaryColor: "--color-primary",
  menuBackground: "--menu-bg",
  menuColor: "--menu-color",
  menuActiveBackground: "--menu-active-bg",
  menuActiveColor: "--menu-active-color",
  headerBackground: "--header-bg",
  headerColor: "--header-color",
};

/** White: the text on the primary colour (buttons, the open tab, the chosen chip). */
export const ON_PRIMARY = "#ffffff";

/** Text and its background that must stay readable (WCAG AA); "primaryColor" carries white text. */
export const COLOUR_PAIRS: readonly { text: LayoutColour | typeof ON_PRIMARY; background: LayoutColour }[] = [
  { text: ON_PRIMARY, background: "primaryColor" },
  { text: "menuColor", background: "menuBackground" },
  { text: "menuActiveColor", background: "menuActiveBackground" },
  { text: "headerColor", background: "headerBackground" },
];

/** SPEC §3 layout config (admin side, persisted) and the language choice. */
export interface LayoutConfig extends Record<LayoutColour, ThemeColours> {
  layoutMode: LayoutMode;
  menuWidth: number;
  menuCollapse: boolean;
  isDark: boolean;
  /** The tab bar of open pages. */
  showTabs: boolean;
}

/** The side menu's width range in the layout settings. */
export const MENU_WIDTH_MIN = 180;
export const MENU_WIDTH_MAX = 400;

/** A pair below AA: the colours, for saying which and by how much. */
export interface ContrastProblem {
  theme: Theme;
  text: LayoutColour | typeof ON_PRIMARY;
  background: LayoutColour;
  ratio: number;
}

export type ColourResult = { ok: true } | { ok: false; problems: ContrastProblem[] };

export interface LangConfig {
  defaultLang: Language;
  fallbackLang: Language;
  langArray: { name: Language; value: string }[];
}

/** What each admin keeps as their own: all of the layout but the theme (the browser's, shared with the member side). */
type AdminLayout = Omit<LayoutConfig, "isDark">;

interface ConfigStore {
  layout: LayoutConfig;
  lang: LangConfig;
  /** Each admin's layout on this browser, by admin id; the one in `layout` belongs to `layoutOwner`. */
  adminLayouts: Record<string, AdminLayout>;
  layoutOwner: number;
  setLayout<K extends keyof LayoutConfig>(key: K, value: LayoutConfig[K]): void;
  /** Sets colours of one theme, unless that leaves a text on a background below 4.5:1: then nothing changes. */
  setColours(theme: Theme, colours: Partial<Record<LayoutColour, string>>): ColourResult;
  /** The layout settings back to their defaults (the theme and the collapsed menu stay). */
  resetLayout(): void;
  /** Loads this admin's layout (on login, or a switch of admin on this browser). */
  loadAdminLayout(adminId: number): void;
  setLang(lang: Language): void;
  /** The side menu's width now: 64 px collapsed (or as a rail), else the configured width. */
  menuWidth(): number;
}

export const defaultLayout: LayoutConfig = {
  layoutMode: "Default",
  menuWidth: MENU_WIDTH,
  menuCollapse: false,
  isDark: false,
  showTabs: true,
  // White text on these: 5.2:1.
  primaryColor: { light: "#2563eb", dark: "#2563eb" },
  menuBackground: { light: "#ffffff", dark: "#0f172a" },
  menuColor: { light: "#334155", dark: "#e2e8f0" },
  menuActiveBackground: { light: "#eff6ff", dark: "#1e293b" },
  menuActiveColor: { light: "#1d4ed8", dark: "#93c5fd" },
  headerBackground: { light: "#ffffff", dark: "#0f172a" },
  headerColor: { light: "#334155", dark: "#e2e8f0" },
};

/** The pairs of `layout` below AA in `theme`. */
export function contrastProblems(layout: Pick<LayoutConfig, LayoutColour>, theme: Theme): ContrastProblem[] {
  const colour = (key: LayoutColour | typeof ON_PRIMARY) => (key === ON_PRIMARY ? ON_PRIMARY : layout[key][theme]);
  return COLOUR_PAIRS.map(({ text, background }) => ({ theme, text, background, ratio: contrastRatio(colour(text), colour(background)) })).filter(
    (p) => p.ratio < AA_CONTRAST,
  );
}

/**
 * A stored layout made safe to use: unknown modes, widths and malformed colours fall back to the
 * defaults, and so does every pair that is not readable (a colour stored by an older version, or
 * edited by hand), pair by pair.
 */
export function cleanLayout(stored: Partial<LayoutConfig> | undefined, base: LayoutConfig = defaultLayout): LayoutConfig {
  const s = stored ?? {};
  const layout: LayoutConfig = {
    layoutMode: LAYOUT_MODES.includes(s.layoutMode as LayoutMode) ? (s.layoutMode as LayoutMode) : base.layoutMode,
    menuWidth: typeof s.menuWidth === "number" && s.menuWidth >= MENU_WIDTH_MIN && s.menuWidth <= MENU_WIDTH_MAX ? s.menuWidth : base.menuWidth,
    menuCollapse: typeof s.menuCollapse === "boolean" ? s.menuCollapse : base.menuCollapse,
    isDark: typeof s.isDark === "boolean" ? s.isDark : base.isDark,
    showTabs: typeof s.showTabs === "boolean" ? s.showTabs : base.showTabs,
    ...Object.fromEntries(
      LAYOUT_COLOURS.map((key) => {
        const v = s[key];
        return [key, { light: isHexColour(v?.light) ? v.light : defaultLayout[key].light, dark: isHexColour(v?.dark) ? v.dark : defaultLayout[key].dark }];
      }),
    ) as Record<LayoutColour, ThemeColours>,
  };
  for (const theme of ["light", "dark"] as const)
    for (const p of contrastProblems(layout, theme))
      for (const key of [p.text, p.background])
        if (key !== ON_PRIMARY) layout[key] = { ...layout[key], [theme]: defaultLayout[key][theme] };
  return layout;
}

/** Sets the theme's colours as CSS custom properties on <html> (the whole app reads them). */
export function applyLayoutColours(layout: LayoutConfig, root: HTMLElement | undefined = typeof document === "undefined" ? undefined : document.documentElement): void {
  if (!root) return;
  const theme: Theme = layout.isDark ? "dark" : "light";
  for (const key of LAYOUT_COLOURS) root.style.setProperty(LAYOUT_COLOUR_VARS[key], layout[key][theme]);
}

const ownPart = ({ isDark: _theme, ...own }: LayoutConfig): AdminLayout => own;

export const useConfig = create<ConfigStore>()(
  persist(
    (set, get) => {
      /** The layout changed: the owner's copy follows. */
      const withLayout = (s: ConfigStore, layout: LayoutConfig): Partial<ConfigStore> => ({
        layout,
        ...(s.layoutOwner ? { adminLayouts: { ...s.adminLayouts, [s.layoutOwner]: ownPart(layout) } } : {}),
      });
      return {
        layout: defaultLayout,
        lang: {
          defaultLang: DEFAULT_LANGUAGE,
          fallbackLang: FALLBACK_LANGUAGE,
          langArray: LANGUAGES.map((name) => ({ name, value: name === "en" ? "English" : "简体中文" })),
        },
        adminLayouts: {},
        layoutOwner: 0,
        setLayout: (key, value) => set((s) => withLayout(s, { ...s.layout, [key]: value })),
        setColours: (theme, colours) => {
          const s = get();
          const next = { ...s.layout };
          for (const [key, value] of Object.entries(colours) as [LayoutColour, string][]) {
            if (!LAYOUT_COLOURS.includes(key) || !isHexColour(value)) continue;
            next[key] = { ...next[key], [theme]: value.toLowerCase() };
          }
          const problems = contrastProblems(next, theme);
          if (problems.length > 0) return { ok: false, problems };
          set(withLayout(s, next));
          return { ok: true };
        },
        resetLayout: () => set((s) => withLayout(s, { ...defaultLayout, isDark: s.layout.isDark, menuCollapse: s.layout.menuCollapse })),
        loadAdminLayout: (adminId) =>
          set((s) => {
            if (!adminId || adminId === s.layoutOwner) return {};
            // The first admin this browser knows keeps the layout set before layouts were per admin.
            const own = s.adminLayouts[adminId] ?? (s.layoutOwner === 0 ? ownPart(s.layout) : ownPart(defaultLayout));
            const layout = cleanLayout({ ...own, isDark: s.layout.isDark });
            return { layout, layoutOwner: adminId, adminLayouts: { ...s.adminLayouts, [adminId]: ownPart(layout) } };
          }),
        setLang: (lang) => set((s) => ({ lang: { ...s.lang, defaultLang: resolveLanguage(lang) } })),
        menuWidth: () => {
          const { layout } = get();
          return layout.menuCollapse || layout.layoutMode === "Rail" ? MENU_WIDTH_COLLAPSED : layout.menuWidth;
        },
      };
    },
    {
      name: STORE_CONFIG,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ layout: s.layout, lang: s.lang, adminLayouts: s.adminLayouts, layoutOwner: s.layoutOwner }),
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<ConfigStore>;
        return {
          ...current,
          layout: cleanLayout({ ...current.layout, ...p.layout }),
          adminLayouts: p.adminLayouts && typeof p.adminLayouts === "object" ? p.adminLayouts : {},
          layoutOwner: typeof p.layoutOwner === "number" ? p.layoutOwner : 0,
          lang: { ...current.lang, ...p.lang, defaultLang: resolveLanguage(p.lang?.defaultLang ?? DEFAULT_LANGUAGE) },
        };
      },
    },
  ),
);

// The colours apply as soon as the store has loaded, and again on every change of the layout
// (a colour, or the theme that picks which set of colours applies).
applyLayoutColours(useConfig.getState().layout);
useConfig.subscribe((s, prev) => {
  if (s.layout !== prev.layout) applyLayoutColours(s.layout);
});
