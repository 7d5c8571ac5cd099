import type { AppConfig } from "../../config.ts";
import { APP_VERSION } from "../../version.ts";

/** Site config sent to both sides (SPEC §3). */
export function siteConfig(config: AppConfig) {
  return {
    siteName: config.siteName,
    /** The 401 page's "contact the administrator" (SITE_CONTACT); hidden when "". */
    contactUrl: config.siteContactUrl ?? "",
    recordNumber: "",
    version: APP_VERSION,
    cdnUrl: "",
    apiUrl: "",
    upload: {
      mode: "local",
      maxsize: 10 * 1024 * 1024,
      mimetype: "jpg,png,bmp,jpeg,gif,webp,zip,rar,xls,xlsx,doc,docx,wav,mp4,webm,mp3,txt,pdf",
      savename: "/storage/{topic}/{year}{mon}{day}/{filesha1}{.suffix}",
    },
    headNav: [],
  };
}
