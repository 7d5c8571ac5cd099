import { Trans, useLingui } from "@lingui/react/macro";
import { ChevronLeft, ChevronRight } from "lucide-react";

const pagerButton =
  "inline-flex min-h-11 items-center justify-center gap-1 rounded-md border border-slate-300 px-3 hover:bg-slate-100 disabled:opacity-40 dark:border-slate-600 dark:hover:bg-slate-800";

/** How many pages `total` rows make at `pageSize` a page: at least 1. */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * Previous / "Page 2 of 5" / next under a paged list (a navigation landmark; the page text is
 * announced when it changes). Nothing when everything fits on one page.
 */
export function Pager({ page, pageCount, onPage, className = "" }: { page: number; pageCount: number; onPage: (page: number) => void; className?: string }) {
  const { t } = useLingui();
  if (pageCount <= 1) return null;
  const pages = pageCount;
  return (
    <nav aria-label={t`Pages`} className={`flex items-center justify-between gap-2 ${className}`}>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1} className={pagerButton}>
        <ChevronLeft aria-hidden className="size-4" />
        <Trans>Previous page</Trans>
      </button>
      <span className="text-sm" aria-live="polite">
        {t`Page ${page} of ${pages}`}
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages} className={pagerButton}>
        <Trans>Next page</Trans>
        <ChevronRight aria-hidden className="size-4" />
      </button>
    </nav>
  );
}
