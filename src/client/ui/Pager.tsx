import { Trans, useLingui } from "@lingui/react/macro";
import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./Button.tsx";

/** How many pages `total` rows make at `pageSize` a page: at least 1. */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * The page buttons to show: all pages up to 7, else the first, the last, the current page and
 * its neighbours, with "gap" where pages are left out (1 … 4 5 6 … 20).
 */
export function pageItems(page: number, pageCount: number): (number | "gap")[] {
  if (pageCount <= 7) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const shown = new Set([1, pageCount, page - 1, page, page + 1].filter((p) => p >= 1 && p <= pageCount));
  // Keep the row the same length at the ends: 1 2 3 4 … 20 rather than 1 2 … 20.
  if (page <= 3) [2, 3, 4].forEach((p) => shown.add(p));
  if (page >= pageCount - 2) [pageCount - 3, pageCount - 2, pageCount - 1].forEach((p) => shown.add(p));
  const sorted = [...shown].sort((a, b) => a - b);
  const items: (number | "gap")[] = [];
  sorted.forEach((p, i) => {
    const prev = sorted[i - 1];
    if (prev !== undefined && p - prev > 1) items.push("gap");
    items.push(p);
  });
  return items;
}

/**
 * Previous / "Page 2 of 5" / next under a paged list (a navigation landmark; the page text is
 * announced when it changes). Nothing when everything fits on one page, unless a `summary` is
 * given: then it replaces the page text and always shows, as it says something of its own (a
 * total). `numbered` adds a button per page (the far ones folded into "…"), for long lists where
 * a member jumps to a page; on a phone it keeps the previous / next labels for screen readers only.
 */
export function Pager({
  page,
  pageCount,
  onPage,
  className = "",
  summary,
  numbered = false,
}: {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  className?: string;
  summary?: ReactNode;
  numbered?: boolean;
}) {
  const { t } = useLingui();
  if (pageCount <= 1 && summary === undefined) return null;
  const pages = pageCount;
  const text = (
    <span className={numbered ? "text-sm text-slate-600 dark:text-slate-300" : "text-sm"} aria-live="polite">
      {summary ?? t`Page ${page} of ${pages}`}
    </span>
  );
  const label = (children: ReactNode) => (numbered ? <span className="sr-only sm:not-sr-only">{children}</span> : children);
  const previous = (
    <Button onClick={() => onPage(page - 1)} disabled={page <= 1}>
      <ChevronLeft aria-hidden className="size-4" />
      {label(<Trans>Previous page</Trans>)}
    </Button>
  );
  const next = (
    <Button onClick={() => onPage(page + 1)} disabled={page >= pages}>
      {label(<Trans>Next page</Trans>)}
      <ChevronRight aria-hidden className="size-4" />
    </Button>
  );
  if (!numbered) {
    return (
      <nav aria-label={t`Pages`} className={`flex items-center justify-between gap-2 ${className}`}>
        {previous}
        {text}
        {next}
      </nav>
    );
  }
  return (
    <nav aria-label={t`Pages`} className={`flex flex-wrap items-center justify-between gap-2 ${className}`}>
      {text}
      <ul className="flex flex-wrap items-center gap-1">
        <li>{previous}</li>
        {pageItems(page, pages).map((item, i) =>
          item === "gap" ? (
            <li key={`gap-${i}`} aria-hidden className="px-1 text-slate-500">
              …
            </li>
          ) : (
            <li key={item}>
              <Button
                variant={item === page ? "primary" : "secondary"}
                aria-label={t`Page ${item}`}
                aria-current={item === page ? "page" : undefined}
                className="min-w-11"
                onClick={() => item !== page && onPage(item)}
              >
                {item}
              </Button>
            </li>
          ),
        )}
        <li>{next}</li>
      </ul>
    </nav>
  );
}
