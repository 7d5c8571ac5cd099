import type { ReactNode } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Download, Flame } from "lucide-react";
import { Link } from "react-router-dom";
import { verifyPath } from "../../../shared/certificate.ts";
import type { Transcript } from "../../../shared/reports.ts";
import { formatTime } from "../../../shared/time.ts";
import { request } from "../../api/index.ts";
import { downloadFile } from "../../api/download.ts";
import { Button } from "../../ui/Button.tsx";
import { LoadRetry } from "../../ui/LoadRetry.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";

/** Where a transcript is read and exported: the member's own, or a member's for staff. */
export interface TranscriptSource {
  key: readonly unknown[];
  url: string;
  exportUrl: string;
  params: Record<string, string | number>;
}

export const ownTranscript: TranscriptSource = { key: ["transcript"], url: "/api/user/transcript", exportUrl: "/api/user/transcript/export", params: {} };

export const memberTranscript = (id: number): TranscriptSource => ({
  key: ["admin", "transcript", id],
  url: "/admin/user/user/transcript",
  exportUrl: "/admin/user/user/transcriptExport",
  params: { id },
});

const day = (seconds: number | null) => (seconds ? formatTime(seconds, "YYYY-MM-DD") : "–");

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section className="space-y-2" data-testid={testId}>
      <h2 className="text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">{children}</p>;
}

const card = "rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900";
const badge = (good: boolean) =>
  `inline-block rounded px-2 py-0.5 text-xs font-medium ${good ? "bg-green-100 text-green-800 dark:bg-green-900/40 dark:text-green-300" : "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200"}`;

/**
 * A transcript (reports): every official room sat (best score, passed, last date,
 * attempts used of allowed), every course (lessons done of total, completed), the review streak,
 * and its export as CSV or .xlsx. Cards rather than a table, so a phone shows it whole.
 */
export function TranscriptView({ source }: { source: TranscriptSource }) {
  const { t, i18n } = useLingui();
  const query = useQuery({
    queryKey: source.key,
    queryFn: async ({ signal }) => (await request<Transcript>({ url: source.url, method: "get", params: source.params, signal })).data,
  });
  const download = useMutation({
    mutationFn: (format: "csv" | "xlsx") =>
      downloadFile(source.exportUrl, { ...source.params, format, tz: Intl.DateTimeFormat().resolvedOptions().timeZone }, "transcript", format, source.url),
  });
  if (query.isPending) return <PageSpinner />;
  if (!query.data) return <LoadRetry message={<Trans>The transcript could not be loaded.</Trans>} onRetry={() => void query.refetch()} />;
  const data = query.data;
  const days = data.review.days;
  const reviews = data.review.reviews;
  const lastOn = day(data.review.lastAt);
  return (
    <div className="space-y-5" data-testid="transcript">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium">{data.member.nickname || data.member.username}</p>
        <div className="flex gap-2">
          {(["xlsx", "csv"] as const).map((format) => (
            <Button key={format} size="sm" onClick={() => download.mutate(format)} disabled={download.isPending}>
              <Download aria-hidden className="size-4" />
              {format === "xlsx" ? <Trans>Export .xlsx</Trans> : <Trans>Export .csv</Trans>}
            </Button>
          ))}
        </div>
      </div>
      <Section title={t`Exams`} testId="transcript-rooms">
        {data.rooms.length === 0 ? (
          <Empty>
            <Trans>No official exams sat yet.</Trans>
          </Empty>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2">
            {data.rooms.map((r) => (
              <li key={r.id} className={card}>
                <div className="flex items-start justify-between gap-2">
                  <p className="font-medium break-words">{r.title}</p>
                  <span className={badge(r.passed)}>{r.passed ? t`Passed` : t`Not passed`}</span>
                </div>
                <dl className="mt-2 grid grid-cols-3 gap-1 text-sm">
                  <div>
                    <dt className="text-xs text-slate-600 dark:text-slate-300">{t`Best score`}</dt>
                    <dd className="tabular-nums">
                      {r.bestScore === null ? "–" : i18n.number(r.bestScore)} / {i18n.number(r.passScore)}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-600 dark:text-slate-300">{t`Attempts`}</dt>
                    <dd className="tabular-nums">{r.attemptsAllowed > 0 ? `${r.attemptsUsed} / ${r.attemptsAllowed}` : r.attemptsUsed}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-600 dark:text-slate-300">{t`Last attempt`}</dt>
                    <dd className="tabular-nums">{day(r.lastAt)}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title={t`Courses`} testId="transcript-courses">
        {data.courses.length === 0 ? (
          <Empty>
            <Trans>No courses started yet.</Trans>
          </Empty>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2">
            {data.courses.map((c) => {
              const percent = c.lessonsTotal > 0 ? Math.round((c.lessonsDone / c.lessonsTotal) * 100) : 0;
              const done = c.lessonsDone;
              const total = c.lessonsTotal;
              const completedOn = day(c.completedAt);
              return (
                <li key={c.id} className={card}>
                  <div className="flex items-start justify-between gap-2">
                    <p className="font-medium break-words">{c.title}</p>
                    <span className={badge(c.completedAt !== null)}>{c.completedAt !== null ? t`Completed` : t`In progress`}</span>
                  </div>
                  <div className="mt-2 h-2 rounded bg-slate-200 dark:bg-slate-700" role="progressbar" aria-label={c.title} aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100}>
                    <div className="h-2 rounded bg-primary" style={{ width: `${percent}%` }} />
                  </div>
                  <p className="mt-1 text-sm text-slate-600 tabular-nums dark:text-slate-300">
                    {t`${done} of ${total} lessons`}
                    {c.completedAt !== null ? ` · ${t`Completed on ${completedOn}`}` : ""}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </Section>
      <Section title={t`Spaced review`} testId="transcript-review">
        <div className={`${card} flex items-center gap-3`}>
          <Flame aria-hidden className="size-6 text-orange-500" />
          <p className="text-sm">
            {t`Review streak: ${plural(days, { one: "# day", other: "# days" })}`} · {t`${plural(reviews, { one: "# review", other: "# reviews" })}`}
            {data.review.lastAt ? ` · ${t`last on ${lastOn}`}` : ""}
          </p>
        </div>
      </Section>
      <Section title={t`Certificates`} testId="transcript-certificates">
        {data.certificates.length === 0 ? (
          <Empty>
            <Trans>No certificates yet.</Trans>
          </Empty>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2">
            {data.certificates.map((c) => (
              <li key={c.serial} className={card}>
                <div className="flex items-start justify-between gap-2">
                  <p className="font-medium break-words">{c.title}</p>
                  <span className={badge(!c.revoked)}>{c.revoked ? t`Revoked` : t`Valid`}</span>
                </div>
                <p className="mt-1 text-sm text-slate-600 tabular-nums dark:text-slate-300">
                  {day(c.issuedAt)} ·{" "}
                  <Link className="text-primary underline" to={verifyPath(c.serial)}>
                    {c.serial}
                  </Link>
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}
