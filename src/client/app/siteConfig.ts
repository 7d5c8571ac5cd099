import { request } from "../api/index.ts";
import { useSiteConfig, type SiteConfig } from "../stores/siteConfig.ts";

/** Refreshes the site config (site name for titles, upload limits...) quietly; offline, the stored copy serves. */
export async function loadSiteConfig(): Promise<void> {
  try {
    const res = await request<{ siteConfig: Partial<SiteConfig> }>(
      { url: "/api/index/index", method: "get" },
      { showErrorMessage: false, showCodeMessage: false },
    );
    useSiteConfig.getState().dataFill(res.data.siteConfig);
  } catch {
    // Offline or server down: keep the persisted config.
  }
}
