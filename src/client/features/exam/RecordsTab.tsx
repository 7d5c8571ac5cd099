import { useMemo, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, CloudUpload, Hourglass, XCircle } from "lucide-react";
import { Link } from "react-router-dom";
import { formatTime } from "../../../shared/time.ts";
import { request } from "../../api/index.ts";
import { unsentSubmissions, useOfflineQuery, type UnsentSubmission } from "../../offline/index.ts";
import { Pager, pageCountOf } from "../../ui/Pager.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { attemptTitle, type ExamRecordRow } from "../../../shared/exam/catalog.ts";
import { examQueries } from "./api.ts";
import { paperSummary, readCachedPaper } from "./papers.ts";
import { IconText } from "../../ui/IconText.tsx";
import { LoadRetry } from "../../ui/LoadRetry.tsx";
import { TitledSection } from "../../ui/TitledSection.tsx";

export type { ExamRecordRow };

export const RECORDS_PAGE_SIZE = 10;

export const examRecordsQuery = (page: number) => ({
  queryKey: ["exam", "records", page] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    (
      await request<{ list: ExamRecordRow[]; total: number }>(
        { url: "/api/exam/records", method: "get", params: { page, limit: RECORDS_PAGE_SIZE }, signal },
        { showErrorMessage: false },
      )
    ).data,
  placeholderData: keepPreviousData,
});

type LocalPending = UnsentSubmission;

const rowClass = "flex flex-wrap items-center gap-x-4 gap-y-1 rounded-lg border border-slate-200 bg-white px-4 py-3 dark:border-slate-700 dark:bg-slate-900";
const linkClass = "min-w-0 flex-1 font-medium text-primary underline-offset-2 hover:underline";

/** Passed or not, for a graded attempt (nothing while it is not graded). */
export function PassMark({ passed }: { passed: boolean | null }) {
  const { t } = useLingui();
  if (passed === null) return null;
  return passed ? (
    <IconText icon={CheckCircle2} tone="good">
      {t`Passed`}
    </IconText>
  ) : (
    <IconText icon={XCircle} tone="bad">
      {t`Not passed`}
    </IconText>
  );
}

/** `/exam/examTab/testRecord`: exam records from the server, plus local ones not yet synced. */
export default function RecordsTab() {
  const { t } = useLingui();
  const [page, setPage] = useState(1);
  const records = useQuery(examRecordsQuery(page));
  const catalog = useQuery(examQueries.catalog());

  // Submitted mock attempts whose `attempt.submit` op is still in the outbox.
  const pending = useOfflineQuery<LocalPending[], LocalPending[]>((db) => unsentSubmissions(db), [], []);

  const serverIds = useMemo(() => new Set(records.data?.list.map((r) => r.uuid) ?? []), [records.data]);
  const local = pending.filter((p) => !serverIds.has(p.attempt.attemptId));
  const total = records.data?.total ?? 0;

  return (
    <div className="space-y-6">
      {local.length > 0 && (
        <section aria-labelledby="records-local-title" className="space-y-2">
          <h2 id="records-local-title" className="flex items-center gap-2 text-lg font-semibold">
            <CloudUpload aria-hidden className="size-5 text-primary" />
            <Trans>On this device, waiting to sync</Trans>
          </h2>
          <ul className="space-y-2">
            {local.map(({ attempt, rejected }) => {
              const summary = paperSummary(attempt.paperId, readCachedPaper(attempt.paperId), catalog.data?.papers);
              const score = attempt.score ?? 0;
              const total = summary.totalScore;
              const when = formatTime(attempt.submittedAt, "YYYY-MM-DD HH:mm");
              const passed = summary.passScore === null ? null : score >= summary.passScore;
              return (
                <li key={attempt.attemptId} className={rowClass}>
                  <Link to={`/exam/examResult?attempt=${encodeURIComponent(attempt.attemptId)}`} className={linkClass}>
                    {summary.title ?? t`Mock exam`}
                  </Link>
                  <span className="text-sm tabular-nums">{total === null ? t`Score ${score}` : t`Score ${score} / ${total}`}</span>
                  <PassMark passed={passed} />
                  <span className="text-sm text-slate-600 dark:text-slate-300">{when}</span>
                  {rejected === null ? (
                    <IconText icon={CloudUpload}>{t`Waiting to sync`}</IconText>
                  ) : (
                    <IconText icon={AlertTriangle} tone="warn">
                      {rejected ? t`Not accepted by the server: ${rejected}` : t`Not accepted by the server`}
                    </IconText>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <TitledSection id="records-title" title={<Trans>Exam records</Trans>} className="space-y-2">
        {records.isPending ? (
          <PageSpinner className="my-12" />
        ) : records.isError ? (
          <LoadRetry message={t`The exam records could not be loaded.`} variant="primary" className="space-y-2 py-6 text-center" onRetry={() => void records.refetch()} />
        ) : records.data.list.length === 0 ? (
          <p className="py-6 text-slate-600 dark:text-slate-300">{t`No exam records yet.`}</p>
        ) : (
          <>
            <ul className="space-y-2" aria-busy={records.isPlaceholderData}>
              {records.data.list.map((r) => {
                const when = formatTime(r.submittedAt || r.startedAt, "YYYY-MM-DD HH:mm");
                const score = r.score;
                const total = r.totalScore;
                const pendingReview = r.pendingReview ?? 0;
                return (
                  <li key={r.uuid} className={rowClass}>
                    <Link to={`/exam/examResult?uuid=${encodeURIComponent(r.uuid)}`} className={linkClass}>
                      {attemptTitle(r)}
                    </Link>
                    <span className="text-sm text-slate-600 dark:text-slate-300">{r.kind === "official" ? t`Official exam` : t`Mock exam`}</span>
                    <span className="text-sm tabular-nums">{t`Score ${score} / ${total}`}</span>
                    <PassMark passed={r.passed} />
                    <span className="text-sm text-slate-600 dark:text-slate-300">{when}</span>
                    {pendingReview > 0 && (
                      <IconText icon={Hourglass} tone="warn">
                        {t`Late answers waiting for review: ${pendingReview}`}
                      </IconText>
                    )}
                  </li>
                );
              })}
            </ul>
            <Pager page={page} pageCount={pageCountOf(total, RECORDS_PAGE_SIZE)} onPage={setPage} className="pt-2" />
          </>
        )}
      </TitledSection>
    </div>
  );
}
