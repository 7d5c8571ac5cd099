import { useEffect } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Inbox } from "lucide-react";
import { useSearchParams } from "react-router-dom";
import { formatTime, toMilliseconds } from "../../../shared/time.ts";
import { request } from "../../api/index.ts";
import { useUserInfo } from "../../stores/userInfo.ts";
import { LoadFailed } from "../../ui/LoadFailed.tsx";
import { Pager, pageCountOf } from "../../ui/Pager.tsx";
import { DataTable } from "../../ui/DataTable.tsx";
import { formatAmount, serverMessage, signedAmount } from "./amounts.ts";

export { formatAmount, serverMessage, signedAmount } from "./amounts.ts";

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

const changeClass: Record<-1 | 0 | 1, string> = {
  1: "text-green-700 dark:text-green-400",
  [-1]: "text-red-700 dark:text-red-400",
  0: "text-slate-600 dark:text-slate-300",
};

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

/** A paged balance or points log: signed changes, before/after, memo and local time. */
export function LogTable({ kind, rows, total, page, onPage, loading = false, error = null, onRetry, caption, pageSize = LOG_PAGE_SIZE }: LogTableProps) {
  const { t } = useLingui();
  const decimals = DECIMALS[kind];
  const pageCount = pageCountOf(total, pageSize);

  if (error) {
    return <LoadFailed message={t`The records could not be loaded.`} detail={typeof error === "string" ? error : undefined} onRetry={onRetry} />;
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

  return (
    <div className="space-y-3">
      {/* A phone shows each row as a small card (change and time, memo, before -> after)
          instead of clipping a wide table; the explicit roles keep the table's meaning when its
          parts are laid out as blocks and grids. */}
      <DataTable
        caption={caption}
        busy={loading}
        explicitRoles
        className="max-sm:block sm:min-w-[36rem]"
        headClassName="max-sm:sr-only"
        bodyClassName="max-sm:block"
        data={rows}
        rowKey={(row) => row.id}
        rowProps={() => ({ className: PHONE_CARD })}
        skeleton={{ rows: 5, testId: "log-skeleton" }}
        columns={[
          {
            id: "change",
            header: kind === "money" ? t`Balance change` : t`Points change`,
            className: (row) => `font-semibold whitespace-nowrap tabular-nums ${changeClass[signedAmount(row[kind], decimals).sign]}`,
            cell: (row) => signedAmount(row[kind], decimals).text,
          },
          { id: "before", header: kind === "money" ? t`Balance before` : t`Points before`, className: "whitespace-nowrap tabular-nums", cell: (row) => formatAmount(row.before, decimals) },
          { id: "after", header: kind === "money" ? t`Balance after` : t`Points after`, className: "whitespace-nowrap tabular-nums", cell: (row) => formatAmount(row.after, decimals) },
          { id: "memo", header: t`Memo`, className: "break-words", cell: (row) => row.memo },
          {
            id: "time",
            header: t`Time`,
            className: "whitespace-nowrap tabular-nums text-slate-600 dark:text-slate-300",
            cell: (row) => {
              const ms = toMilliseconds(row.create_time);
              return <time dateTime={Number.isFinite(ms) ? new Date(ms).toISOString() : undefined}>{formatTime(row.create_time)}</time>;
            },
          },
        ]}
      />
      <Pager
        numbered
        page={page}
        pageCount={pageCount}
        onPage={onPage}
        summary={t`Page ${page} of ${pageCount}, ${plural(total, { one: "# record in total", other: "# records in total" })}`}
      />
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
  const pageCount = pageCountOf(total, LOG_PAGE_SIZE);

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
