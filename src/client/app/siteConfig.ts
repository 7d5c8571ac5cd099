import { request } from "../api/index.ts";
import { STORE_SITE_CONFIG } from "../stores/keys.ts";
import { useSiteConfig, type SiteConfig } from "../stores/siteConfig.ts";

/** A page that comes back into view asks the server again when its copy is older than this. */
export const SITE_CONFIG_STALE_MS = 30_000;

let loadedAt = 0;
let watching = false;

/** Refreshes the site config (site name for titles, upload limits...) quietly; offline, the stored copy serves. */
export async function loadSiteConfig(): Promise<void> {
  watchSiteConfig();
  loadedAt = Date.now();
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

/**
 * Keeps the config of an open page from going stale after a save in the back office (the
 * member's header and footer name the site): another tab of this browser that saved it (the
 * config screen writes the stored copy) is followed at once, and a page that comes back into
 * view after a while asks the server again. Elsewhere, the next page load has it (the answer
 * is never cached).
 */
function watchSiteConfig(): void {
  if (watching || typeof window === "undefined") return;
  watching = true;
  window.addEventListener("storage", (event) => {
    if (event.key === STORE_SITE_CONFIG) void useSiteConfig.persist.rehydrate();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && Date.now() - loadedAt > SITE_CONFIG_STALE_MS) void loadSiteConfig();
  });
}
