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
import { STORE_CONFIG } from "./keys.ts";

export type LayoutMode = "Default" | "Classic";

/** SPEC §3 layout config (admin side, persisted) and the language choice. */
export interface LayoutConfig {
  layoutMode: LayoutMode;
  menuWidth: number;
  menuCollapse: boolean;
  isDark: boolean;
  /** Primary colour per theme. */
  primaryColor: { light: string; dark: string };
  menuBackground: { light: string; dark: string };
  headerBackground: { light: string; dark: string };
}

export interface LangConfig {
  defaultLang: Language;
  fallbackLang: Language;
  langArray: { name: Language; value: string }[];
}

interface ConfigStore {
  layout: LayoutConfig;
  lang: LangConfig;
  setLayout<K extends keyof LayoutConfig>(key: K, value: LayoutConfig[K]): void;
  setLang(lang: Language): void;
  /** The side menu's width now: 64 px collapsed, else the configured width. */
  menuWidth(): number;
}

export const defaultLayout: LayoutConfig = {
  layoutMode: "Default",
  menuWidth: MENU_WIDTH,
  menuCollapse: false,
  isDark: false,
  primaryColor: { light: "#2563eb", dark: "#60a5fa" },
  menuBackground: { light: "#ffffff", dark: "#0f172a" },
  headerBackground: { light: "#ffffff", dark: "#0f172a" },
};

export const useConfig = create<ConfigStore>()(
  persist(
    (set, get) => ({
      layout: defaultLayout,
      lang: {
        defaultLang: DEFAULT_LANGUAGE,
        fallbackLang: FALLBACK_LANGUAGE,
        langArray: LANGUAGES.map((name) => ({ name, value: name === "en" ? "English" : "简体中文" })),
      },
      setLayout: (key, value) => set((s) => ({ layout: { ...s.layout, [key]: value } })),
      setLang: (lang) => set((s) => ({ lang: { ...s.lang, defaultLang: resolveLanguage(lang) } })),
      menuWidth: () => (get().layout.menuCollapse ? MENU_WIDTH_COLLAPSED : get().layout.menuWidth),
    }),
    {
      name: STORE_CONFIG,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ layout: s.layout, lang: s.lang }),
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<ConfigStore>;
        return {
          ...current,
          layout: { ...current.layout, ...p.layout },
          lang: { ...current.lang, ...p.lang, defaultLang: resolveLanguage(p.lang?.defaultLang ?? DEFAULT_LANGUAGE) },
        };
      },
    },
  ),
);
