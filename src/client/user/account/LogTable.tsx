import { useEffect, useId } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AlertCircle, ChevronLeft, ChevronRight, Inbox, RotateCw } from "lucide-react";
import { useSearchParams } from "react-router-dom";
import { formatTime, toMilliseconds } from "../../../shared/time.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { useUserInfo } from "../../stores/userInfo.ts";
import { Button } from "../../ui/Button.tsx";

/** Rows per page of the balance and points logs. */
export const LOG_PAGE_SIZE = 10;

/** `money`: the balance log (amounts with 2 decimals); `score`: the points log (whole numbers). */
export type LogKind = "money" | "score";

/** One row of `GET /api/account/balance|integral` (money fields are strings with 2 decimals). */
export interface AccountLogRow {
  id: number;
  user_id: number;
  money?: string | number;
  score?: string | number;
  before: string | number;
  after: string | number;
  memo: string;
  /** Unix seconds. */
  create_time: number | string;
}

export interface AccountLogPage {
  list: AccountLogRow[];
  total: number;
}

const DECIMALS: Record<LogKind, number> = { money: 2, score: 0 };

/** A log amount as text, `decimals` places (the raw value when it is not a number). */
export function formatAmount(value: string | number | undefined, decimals: number): string {
  const n = typeof value === "number" ? value : Number(value);
  if (value === undefined || value === "" || !Number.isFinite(n)) return String(value ?? "");
  return n.toFixed(decimals);
}

/**
 * A change with its sign spelled out (so colour is never the only cue): `+5.00`, `−5.00`
 * (U+2212 minus), `0.00`; `sign` is 1, -1 or 0.
 */
export function signedAmount(value: string | number | undefined, decimals: number): { sign: 1 | -1 | 0; text: string } {
  const n = typeof value === "number" ? value : Number(value);
  if (value === undefined || value === "" || !Number.isFinite(n)) return { sign: 0, text: String(value ?? "") };
  const abs = Math.abs(n).toFixed(decimals);
  if (Number(abs) === 0) return { sign: 0, text: abs };
  return n > 0 ? { sign: 1, text: `+${abs}` } : { sign: -1, text: `\u2212${abs}` };
}

export function pageCountOf(total: number, pageSize: number = LOG_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / pageSize));
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

const changeClass: Record<-1 | 0 | 1, string> = {
  1: "text-green-700 dark:text-green-400",
  [-1]: "text-red-700 dark:text-red-400",
  0: "text-slate-600 dark:text-slate-300",
};

const pagerButton =
  "inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-md border px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-primary disabled:cursor-not-allowed disabled:opacity-50";
const pagerIdle = "border-slate-300 bg-white text-slate-700 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800";
const pagerCurrent = "border-primary bg-primary font-semibold text-white";

/** An inline load failure with a retry button (the request layer has toasted the details). */
export function LoadError({ message, detail, onRetry }: { message: string; detail?: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border border-red-200 bg-red-50 p-6 text-center dark:border-red-900 dark:bg-red-950/40">
      <AlertCircle aria-hidden className="size-8 text-red-700 dark:text-red-400" />
      <p className="font-medium text-red-800 dark:text-red-200">{message}</p>
      {detail && <p className="text-sm text-red-800 dark:text-red-200">{detail}</p>}
      {onRetry && (
        <Button
          variant="primary"
          onClick={onRetry}
          className="text-sm"
        >
          <RotateCw aria-hidden className="size-4" />
          <Trans>Retry</Trans>
        </Button>
      )}
    </div>
  );
}

/** The server's message of a refused request (an envelope), if any. */
export function serverMessage(error: unknown): string | undefined {
  return serverRefusal(error)?.msg || undefined;
}

export interface LogTableProps {
  kind: LogKind;
  rows: AccountLogRow[];
  total: number;
  /** 1-based. */
  page: number;
  onPage(page: number): void;
  /** A page is being fetched (rows, if any, are the previous page's). */
  loading?: boolean;
  /** The page could not be loaded: true, or the server's message. */
  error?: boolean | string | null;
  onRetry?(): void;
  /** Names the table for screen readers. */
  caption: string;
  pageSize?: number;
}

/**
 * A log row on a phone: change (left) and time (right) on the first line, the memo on the second,
 * before -> after on the third; the cells keep their own markup and are only placed here.
 */
const PHONE_CARD = [
  "max-sm:flex max-sm:flex-wrap max-sm:items-baseline max-sm:gap-x-2 max-sm:gap-y-1 max-sm:px-3 max-sm:py-3",
  "max-sm:[&>td]:p-0",
  "max-sm:[&>td:nth-child(1)]:order-1 max-sm:[&>td:nth-child(1)]:text-base",
  "max-sm:[&>td:nth-child(5)]:order-2 max-sm:[&>td:nth-child(5)]:ml-auto max-sm:[&>td:nth-child(5)]:text-xs",
  "max-sm:[&>td:nth-child(4)]:order-3 max-sm:[&>td:nth-child(4)]:basis-full",
  "max-sm:[&>td:nth-child(2)]:order-4 max-sm:[&>td:nth-child(3)]:order-5 max-sm:[&>td:nth-child(2)]:text-xs max-sm:[&>td:nth-child(3)]:text-xs",
  "max-sm:[&>td:nth-child(2)]:text-slate-600 max-sm:[&>td:nth-child(3)]:text-slate-600 dark:max-sm:[&>td:nth-child(2)]:text-slate-300 dark:max-sm:[&>td:nth-child(3)]:text-slate-300",
  "max-sm:[&>td:nth-child(3)]:before:content-['→_']",
].join(" ");

function SkeletonRows() {
  return (
    <>
      {Array.from({ length: 5 }, (_, i) => (
        <tr key={i} data-testid="log-skeleton">
          {Array.from({ length: 5 }, (_, j) => (
            <td key={j} className="px-3 py-3">
              <span className="block h-4 w-full max-w-24 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

/** A paged balance or points log: signed changes, before/after, memo and local time. */
export function LogTable({ kind, rows, total, page, onPage, loading = false, error = null, onRetry, caption, pageSize = LOG_PAGE_SIZE }: LogTableProps) {
  const { t } = useLingui();
  const captionId = useId();
  const decimals = DECIMALS[kind];
  const pageCount = pageCountOf(total, pageSize);

  if (error) {
    return <LoadError message={t`The records could not be loaded.`} detail={typeof error === "string" ? error : undefined} onRetry={onRetry} />;
  }
  if (!loading && rows.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-slate-300 p-10 text-center text-slate-600 dark:border-slate-700 dark:text-slate-300">
        <Inbox aria-hidden className="size-8 text-slate-500 dark:text-slate-400" />
        <p>
          <Trans>No records yet</Trans>
        </p>
      </div>
    );
  }

  const th = "px-3 py-2 text-left font-medium whitespace-nowrap";
  return (
    <div className="space-y-3">
      <div
        role="region"
        aria-labelledby={captionId}
        // The table may scroll sideways on phones; the region can take focus for keyboard scrolling.
        tabIndex={0}
        className="overflow-x-auto rounded-xl border border-slate-200 bg-white outline-none focus-visible:ring-2 focus-visible:ring-primary dark:border-slate-700 dark:bg-slate-900"
      >
        {/* A phone shows each row as a small card (change and time, memo, before -> after)
            instead of clipping a wide table; the explicit roles keep the table's meaning when its
            parts are laid out as blocks and grids. */}
        <table role="table" aria-busy={loading || undefined} className={`w-full text-sm max-sm:block sm:min-w-[36rem] ${loading && rows.length > 0 ? "opacity-60" : ""}`}>
          <caption id={captionId} className="sr-only">
            {caption}
          </caption>
          <thead role="rowgroup" className="border-b border-slate-200 bg-slate-50 text-slate-700 max-sm:sr-only dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200">
            <tr role="row">
              <th scope="col" className={th}>
                {kind === "money" ? t`Balance change` : t`Points change`}
              </th>
              <th scope="col" className={th}>
                {kind === "money" ? t`Balance before` : t`Points before`}
              </th>
              <th scope="col" className={th}>
                {kind === "money" ? t`Balance after` : t`Points after`}
              </th>
              <th scope="col" className={th}>
                <Trans>Memo</Trans>
              </th>
              <th scope="col" className={th}>
                <Trans>Time</Trans>
              </th>
            </tr>
          </thead>
          <tbody role="rowgroup" className="divide-y divide-slate-100 max-sm:block dark:divide-slate-800">
            {rows.length === 0 ? (
              <SkeletonRows />
            ) : (
              rows.map((row) => {
                const change = signedAmount(row[kind], decimals);
                const ms = toMilliseconds(row.create_time);
                return (
                  <tr key={row.id} role="row" className={PHONE_CARD}>
                    <td className={`px-3 py-3 font-semibold whitespace-nowrap tabular-nums ${changeClass[change.sign]}`}>{change.text}</td>
                    <td className="px-3 py-3 whitespace-nowrap tabular-nums">{formatAmount(row.before, decimals)}</td>
                    <td className="px-3 py-3 whitespace-nowrap tabular-nums">{formatAmount(row.after, decimals)}</td>
                    <td className="px-3 py-3 break-words">{row.memo}</td>
                    <td className="px-3 py-3 whitespace-nowrap tabular-nums text-slate-600 dark:text-slate-300">
                      <time dateTime={Number.isFinite(ms) ? new Date(ms).toISOString() : undefined}>{formatTime(row.create_time)}</time>
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>

      <nav aria-label={t`Pages`} className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
          {t`Page ${page} of ${pageCount}, ${plural(total, { one: "# record in total", other: "# records in total" })}`}
        </p>
        <ul className="flex flex-wrap items-center gap-1">
          <li>
            <button type="button" className={`${pagerButton} ${pagerIdle}`} disabled={page <= 1} onClick={() => onPage(page - 1)}>
              <ChevronLeft aria-hidden className="size-4" />
              <span className="sr-only sm:not-sr-only">
                <Trans>Previous page</Trans>
              </span>
            </button>
          </li>
          {pageItems(page, pageCount).map((item, i) =>
            item === "gap" ? (
              <li key={`gap-${i}`} aria-hidden className="px-1 text-slate-500">
                …
              </li>
            ) : (
              <li key={item}>
                <button
                  type="button"
                  aria-label={t`Page ${item}`}
                  aria-current={item === page ? "page" : undefined}
                  className={`${pagerButton} ${item === page ? pagerCurrent : pagerIdle}`}
                  onClick={() => item !== page && onPage(item)}
                >
                  {item}
                </button>
              </li>
            ),
          )}
          <li>
            <button type="button" className={`${pagerButton} ${pagerIdle}`} disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
              <span className="sr-only sm:not-sr-only">
                <Trans>Next page</Trans>
              </span>
              <ChevronRight aria-hidden className="size-4" />
            </button>
          </li>
        </ul>
      </nav>
    </div>
  );
}

const ENDPOINT: Record<LogKind, { url: string; key: string }> = {
  money: { url: "/api/account/balance", key: "balance" },
  score: { url: "/api/account/integral", key: "integral" },
};

/** The page in `?page=`, at least 1. */
function usePageParam(): [number, (page: number, replace?: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get("page"));
  const page = Number.isInteger(raw) && raw >= 1 ? raw : 1;
  const setPage = (next: number, replace = false) =>
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        if (next <= 1) out.delete("page");
        else out.set("page", String(next));
        return out;
      },
      { replace },
    );
  return [page, setPage];
}

/** The balance or points log screen: current value, then the paged log from the server. */
export function AccountLogScreen({ kind }: { kind: LogKind }) {
  const { t } = useLingui();
  const [page, setPage] = usePageParam();
  const { url, key } = ENDPOINT[kind];
  const current = useUserInfo((s) => s[kind]);
  const query = useQuery({
    queryKey: ["account", key, page],
    queryFn: async ({ signal }) => (await request<AccountLogPage>({ url, method: "get", params: { page, limit: LOG_PAGE_SIZE }, signal })).data,
    placeholderData: keepPreviousData,
  });
  const total = query.data?.total ?? 0;
  const pageCount = pageCountOf(total);

  // A page beyond the end (an old link, or records removed meanwhile): go to the last page.
  useEffect(() => {
    if (query.data && !query.isPlaceholderData && total > 0 && page > pageCount) setPage(pageCount, true);
  });

  const title = kind === "money" ? t`Balance log` : t`Points log`;
  const amount = formatAmount(current, DECIMALS[kind]);
  return (
    <section className="space-y-4">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold">{title}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {kind === "money" ? t`Current balance: ${amount}` : t`Current points: ${amount}`}
        </p>
      </header>
      <LogTable
        kind={kind}
        caption={title}
        rows={query.data?.list ?? []}
        total={total}
        page={page}
        onPage={(p) => setPage(p)}
        loading={query.isFetching}
        error={query.isError && !query.data ? (serverMessage(query.error) ?? true) : null}
        onRetry={() => void query.refetch()}
      />
    </section>
  );
}
