import { Trans } from "@lingui/react/macro";
import { useSiteConfig } from "../../stores/siteConfig.ts";

/**
 * The foot of every member page: the site's name as the back office set it, and its ICP record
 * number (备案号) where one is set, linked to the registry that shows it, as Chinese sites must.
 */
export function SiteFooter() {
  const siteName = useSiteConfig((s) => s.siteName) || "ExamHub";
  const recordNumber = useSiteConfig((s) => s.recordNumber);
  return (
    <footer className="space-y-1 border-t border-slate-200 py-4 text-center text-xs text-slate-500 dark:border-slate-800">
      <p>
        <Trans>{siteName} — courses and exams, online and offline</Trans>
      </p>
      {recordNumber && (
        <p>
          <a href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer" className="underline-offset-2 hover:underline">
            {recordNumber}
          </a>
        </p>
      )}
    </footer>
  );
}
