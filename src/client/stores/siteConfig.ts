import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";
import { STORE_SITE_CONFIG } from "./keys.ts";

/** SPEC §3 site config, as the server sends it. */
export interface SiteConfig {
  siteName: string;
  /** Where to reach the site's administrator (`mailto:` or http(s)); "" when none is set. */
  contactUrl: string;
  recordNumber: string;
  version: string;
  cdnUrl: string;
  apiUrl: string;
  upload: { mode: string; maxsize: number | string; mimetype: string; savename: string };
  headNav: { title: string; url: string }[];
  initialize: boolean;
  userInitialize: boolean;
}

interface SiteConfigStore extends SiteConfig {
  dataFill(config: Partial<SiteConfig>): void;
}

export const defaultSiteConfig: SiteConfig = {
  siteName: "",
  contactUrl: "",
  recordNumber: "",
  version: "",
  cdnUrl: "",
  apiUrl: "",
  upload: { mode: "local", maxsize: 10 * 1024 * 1024, mimetype: "jpg,png,bmp,jpeg,gif,webp,zip,rar,xls,xlsx,doc,docx,wav,mp4,mp3,txt,pdf", savename: "" },
  headNav: [],
  initialize: false,
  userInitialize: false,
};

export const useSiteConfig = create<SiteConfigStore>()(
  persist(
    (set) => ({
      ...defaultSiteConfig,
      dataFill: (config) => set(config),
    }),
    {
      name: STORE_SITE_CONFIG,
      storage: createJSONStorage(() => localStorage),
      // Load flags are per page load: a fresh page always asks the server again.
      partialize: ({ initialize: _i, userInitialize: _u, ...rest }) => rest,
    },
  ),
);
