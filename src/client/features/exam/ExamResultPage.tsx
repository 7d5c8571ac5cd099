import { Suspense, lazy, useId, useMemo, useState } from "react";
import { attemptTitle, type ExamRecordDetail } from "../../../shared/exam/catalog.ts";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, CircleDashed, CircleHelp, CloudOff, CloudUpload, EyeOff, Hourglass, LineChart, MinusCircle, RefreshCw, XCircle } from "lucide-react";
import { Link, useSearchParams } from "react-router-dom";
import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import { formatTime } from "../../../shared/time.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { useDocumentTitle } from "../../routing/routeState.ts";
import { gradedAttemptsOfPaper, storedAttempt, useOfflineDb, useOfflineQuery, waitingSubmissions, type AttemptRow } from "../../offline/index.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { BackButton } from "../../ui/BackButton.tsx";
import { LoadFailed } from "../../ui/LoadFailed.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { DataTable } from "../../ui/DataTable.tsx";
import { examQueries } from "./api.ts";
import { paperSummary, readCachedPaper, totalOf } from "./papers.ts";
import { QuestionStem, answerText, isAnswered, useAnswerLabels, type AnswerLabels } from "./QuestionView.tsx";
import { TitledSection } from "../../ui/TitledSection.tsx";
import { ButtonLink } from "../../ui/ButtonLink.tsx";

// chart.js is large: its own chunk, loaded once a history shows.
const ScoreHistoryChart = lazy(() => import("./ScoreHistoryChart.tsx").then((m) => ({ default: m.ScoreHistoryChart })));

export interface QuestionResult {
  correct: boolean | null;
  score: number;
}

export type { ExamRecordDetail };

export const examRecordQuery = (uuid: string) => ({
  queryKey: ["exam", "record", uuid] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) =>
    (await request<ExamRecordDetail>({ url: "/api/exam/record", method: "get", params: { uuid }, signal }, { showErrorMessage: false, showCodeMessage: false })).data,
});

/** What the result screen shows, from a local attempt or a server record. */
export interface ResultView {
  kind: "mock" | "official";
  paperId: number;
  /** The exam room for an official attempt, the paper for a mock one; null: the paper is not on this device. */
  title: string | null;
  score: number;
  totalScore: number;
  passScore: number | null;
  /** null: the pass mark is not known on this device. */
  passed: boolean | null;
  /** ms since the epoch. */
  submittedAt: number | null;
  questions: ExamQuestion[];
  answers: Record<string, GivenAnswer>;
  results: Record<string, QuestionResult>;
  /** Official answers that reached the server after the deadline, waiting for a marker (not in the score). */
  pendingReview: number;
  /** Short answers a marker reviews: the score given (null while waiting) and the comment. */
  reviews: Record<string, { score: number | null; comment: string }>;
  /** When staff regraded the attempt (ms since the epoch: corrected questions count), or null. */
  regradedAt?: number | null;
  /** The room shows the answers once it has closed: when (ms since the epoch), while it is open. */
  answersShownAt?: number | null;
}

export function viewOfLocal(
  attempt: AttemptRow,
  paper: { title: string | null; totalScore: number | null; passScore: number | null },
): ResultView {
  const score = attempt.score ?? 0;
  return {
    kind: "mock",
    paperId: attempt.paperId,
    title: paper.title,
    score,
    totalScore: paper.totalScore ?? totalOf(attempt.questions),
    passScore: paper.passScore,
    passed: paper.passScore === null ? null : score >= paper.passScore,
    submittedAt: attempt.submittedAt,
    questions: attempt.questions,
    answers: attempt.answers,
    results: attempt.results ?? {},
    pendingReview: 0,
    reviews: {},
  };
}

export function viewOfRecord(record: ExamRecordDetail): ResultView {
  const a = record.attempt;
  return {
    kind: a.kind,
    paperId: a.paperId,
    title: attemptTitle(a),
    score: Number(a.score),
    totalScore: Number(a.totalScore),
    passScore: Number(a.passScore),
    passed: a.passed,
    submittedAt: a.submittedAt ? a.submittedAt * 1000 : null,
    questions: record.questions,
    answers: record.answers,
    results: record.results,
    pendingReview: a.pendingReview ?? 0,
    reviews: record.reviews ?? {},
    regradedAt: a.regradedAt ? a.regradedAt * 1000 : null,
    answersShownAt: a.answersShownAt ? a.answersShownAt * 1000 : null,
  };
}

export interface ResultSummaryProps extends Pick<ResultView, "title" | "score" | "totalScore" | "passScore" | "passed" | "submittedAt" | "regradedAt"> {
  /** Graded on this device; the server grades again when it syncs. */
  waitingToSync?: boolean;
  /** Late official answers waiting for a marker's review. */
  pendingReview?: number;
}

/** Score, total and pass or fail (icon and words, never colour alone). */
export function ResultSummary({ title, score, totalScore, passScore, passed, submittedAt, waitingToSync, pendingReview = 0, regradedAt = null }: ResultSummaryProps) {
  const { t } = useLingui();
  const when = formatTime(submittedAt, "YYYY-MM-DD HH:mm");
  const regraded = formatTime(regradedAt, "YYYY-MM-DD HH:mm");
  return (
    <section aria-labelledby="result-title" className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <h1 id="result-title" className="text-xl font-semibold">
        {title ?? t`Mock exam`}
      </h1>
      {when && <p className="text-sm text-slate-600 dark:text-slate-300">{t`Submitted on ${when}`}</p>}
      {regraded && (
        <p className="flex items-center gap-2 text-sm text-sky-800 dark:text-sky-200" data-testid="result-regraded">
          <RefreshCw aria-hidden className="size-4 shrink-0" />
          {t`Regraded on ${regraded}: staff corrected questions of this exam, and the score counts them as corrected.`}
        </p>
      )}
      <p className="text-3xl font-semibold tabular-nums" data-testid="result-score">
        <span className="sr-only">{t`Score:`} </span>
        {score} <span className="text-lg font-normal text-slate-600 dark:text-slate-300">/ {totalScore}</span>
      </p>
      {passed === true && (
        <p role="status" className="flex items-center gap-2 font-medium text-emerald-700 dark:text-emerald-300">
          <CheckCircle2 aria-hidden className="size-6" />
          {t`Passed (pass mark ${passScore})`}
        </p>
      )}
      {passed === false && (
        <p role="status" className="flex items-center gap-2 font-medium text-red-700 dark:text-red-300">
          <XCircle aria-hidden className="size-6" />
          {t`Not passed (pass mark ${passScore})`}
        </p>
      )}
      {passed === null && (
        <p role="status" className="flex items-center gap-2 text-slate-600 dark:text-slate-300">
          <CircleHelp aria-hidden className="size-6" />
          {t`The pass mark is not on this device yet.`}
        </p>
      )}
      {waitingToSync && (
        <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <CloudUpload aria-hidden className="size-4 shrink-0" />
          {t`Graded on this device; waiting to sync. The server grades it again when it receives it.`}
        </p>
      )}
      {pendingReview > 0 && (
        <p className="flex items-center gap-2 text-sm text-amber-800 dark:text-amber-200">
          <Hourglass aria-hidden className="size-4 shrink-0" />
          {t`Answers that reached the server after the deadline: ${pendingReview}, waiting for a marker's review. The score counts only the answers that arrived in time.`}
        </p>
      )}
    </section>
  );
}

/** A given answer as text ("B", "A, C", "True", "1949; Beijing"); "" when unanswered. */
export function givenText(question: ExamQuestion, answer: GivenAnswer | undefined, labels: AnswerLabels): string {
  if (answer === undefined || !isAnswered(question, answer)) return "";
  if (question.type === "judge") return answer === "T" ? labels.true : answer === "F" ? labels.false : String(answer);
  if (Array.isArray(answer)) return question.type === "fill" ? answer.join("; ") : labels.list(answer);
  return answer;
}

/** How one question of a result went: unanswered is never "wrong"; "hidden" when the exam does not show its results. */
export type QuestionOutcome = "correct" | "wrong" | "review" | "unanswered" | "hidden";

export function questionOutcome(question: ExamQuestion, answer: GivenAnswer | undefined, result: QuestionResult | undefined): QuestionOutcome {
  if (answer === undefined || !isAnswered(question, answer)) return "unanswered";
  if (!result) return "hidden";
  return result.correct === true ? "correct" : result.correct === false ? "wrong" : "review";
}

function Outcome({ outcome }: { outcome: QuestionOutcome }) {
  const { t } = useLingui();
  if (outcome === "hidden") return null;
  const [icon, text] =
    outcome === "correct"
      ? [<CheckCircle2 key="i" aria-hidden className="size-5 text-emerald-600" />, t`Correct`]
      : outcome === "wrong"
        ? [<XCircle key="i" aria-hidden className="size-5 text-red-600" />, t`Wrong`]
        : outcome === "unanswered"
          ? [<CircleDashed key="i" aria-hidden className="size-5 text-slate-500" />, t`Unanswered`]
          : [<MinusCircle key="i" aria-hidden className="size-5 text-slate-500" />, t`To be reviewed`];
  return (
    <p className="flex items-center gap-2 text-sm font-medium" data-testid="question-outcome">
      {icon}
      {text}
    </p>
  );
}

/** A marker's score and comment on a short answer (or that it still waits for one). */
function MarkerReview({ review, worth }: { review: { score: number | null; comment: string } | undefined; worth: number }) {
  const { t } = useLingui();
  if (!review) return null;
  if (review.score === null) return <p className="text-sm text-amber-700 dark:text-amber-300">{t`Waiting for a marker's review`}</p>;
  const got = review.score;
  return (
    <div className="space-y-1 rounded-md bg-slate-50 p-2 text-sm dark:bg-slate-800" data-testid="marker-review">
      <p className="font-medium">{t`Marked: ${got} of ${worth}`}</p>
      {review.comment && (
        <p className="whitespace-pre-wrap">
          <span className="font-medium">{t`Marker's comment:`}</span> {review.comment}
        </p>
      )}
    </div>
  );
}

function Review({ view }: { view: ResultView }) {
  const { t } = useLingui();
  const labels = useAnswerLabels();
  const outcomes = view.questions.map((q) => questionOutcome(q, view.answers[String(q.id)], view.results[String(q.id)]));
  const shownAt = formatTime(view.answersShownAt ?? null, "YYYY-MM-DD HH:mm");
  return (
    <TitledSection id="review-title" title={<Trans>Review</Trans>}>
      {outcomes.includes("hidden") && (
        <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <EyeOff aria-hidden className="size-4 shrink-0" />
          {view.answersShownAt
            ? t`The answers and analysis show here once the exam room has closed (${shownAt}).`
            : t`This exam does not show which answers were right.`}
        </p>
      )}
      <ol className="space-y-3">
        {view.questions.map((q, i) => {
          const n = i + 1;
          const result = view.results[String(q.id)];
          const given = givenText(q, view.answers[String(q.id)], labels);
          const got = result?.score ?? 0;
          const worth = q.score;
          const correctText = answerText(q, q.answer, labels);
          return (
            <li key={q.id} className="space-y-2 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
              <p className="text-sm text-slate-600 dark:text-slate-300">
                {outcomes[i] === "hidden"
                  ? t`Question ${n} (${plural(worth, { one: "# point", other: "# points" })})`
                  : t`Question ${n}, ${got} of ${plural(worth, { one: "# point", other: "# points" })}`}
              </p>
              <QuestionStem question={q} optionsClass="space-y-1 text-sm" />
              <p className="text-sm">
                <span className="font-medium">{t`Your answer:`}</span> {given || t`Not answered`}
              </p>
              <Outcome outcome={outcomes[i]!} />
              <MarkerReview review={view.reviews[String(q.id)]} worth={worth} />
              {correctText && (
                <p className="text-sm">
                  <span className="font-medium">{t`Answer:`}</span> {correctText}
                </p>
              )}
              {q.analysis && (
                <p className="text-sm whitespace-pre-wrap">
                  <span className="font-medium">{t`Analysis:`}</span> {q.analysis}
                </p>
              )}
            </li>
          );
        })}
      </ol>
    </TitledSection>
  );
}

function ChartSkeleton() {
  return <div className="h-56 animate-pulse rounded-lg bg-slate-100 sm:h-64 dark:bg-slate-800" />;
}

/** Local submitted attempts of the paper, oldest first, as a chart and a table. */
function ScoreHistory({ paperId, passScore, totalScore }: { paperId: number; passScore: number | null; totalScore: number }) {
  const { t } = useLingui();
  const tableId = useId();
  const [showTable, setShowTable] = useState(false);
  const history = useOfflineQuery<AttemptRow[]>(
    (db) => gradedAttemptsOfPaper(db, paperId),
    [paperId],
    undefined,
  );
  const points = useMemo(
    () =>
      (history ?? [])
        .slice()
        .sort((a, b) => (a.submittedAt ?? 0) - (b.submittedAt ?? 0))
        .map((a) => ({ id: a.attemptId, label: formatTime(a.submittedAt, "MM-DD HH:mm"), score: a.score ?? 0 })),
    [history],
  );
  const labels = useMemo(() => points.map((p) => p.label), [points]);
  const scores = useMemo(() => points.map((p) => p.score), [points]);
  if (points.length === 0) return null;
  return (
    <section aria-labelledby={`${tableId}-title`} className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${tableId}-title`} className="flex items-center gap-2 text-lg font-semibold">
          <LineChart aria-hidden className="size-5 text-primary" />
          <Trans>Your scores on this paper</Trans>
        </h2>
        <Button aria-pressed={showTable} onClick={() => setShowTable(!showTable)} className="text-sm">
          <Trans>Show as table</Trans>
        </Button>
      </div>
      {!showTable && (
        <Suspense fallback={<ChartSkeleton />}>
          <ScoreHistoryChart labels={labels} scores={scores} passScore={passScore} totalScore={totalScore} />
        </Suspense>
      )}
      <div className={showTable ? "overflow-x-auto" : "sr-only"}>
        <DataTable
          caption={t`Your scores on this paper`}
          frame={false}
          data={points}
          rowKey={(p) => p.id}
          columns={[
            { id: "submitted", header: t`Submitted at`, cell: (p) => p.label },
            { id: "score", header: t`Score`, className: "tabular-nums", cell: (p) => p.score },
          ]}
        />
      </div>
    </section>
  );
}

function ResultBody({ view, waitingToSync }: { view: ResultView; waitingToSync: boolean }) {
  const { t } = useLingui();
  const title = view.title ?? (view.kind === "official" ? t`Official exam` : t`Mock exam`);
  useDocumentTitle(t`Result: ${title}`);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackButton to="/exam/myTest" />
      <ResultSummary
        title={title}
        score={view.score}
        totalScore={view.totalScore}
        passScore={view.passScore}
        passed={view.passed}
        submittedAt={view.submittedAt}
        waitingToSync={waitingToSync}
        pendingReview={view.pendingReview}
        regradedAt={view.regradedAt}
      />
      <ScoreHistory paperId={view.paperId} passScore={view.passScore} totalScore={view.totalScore} />
      <Review view={view} />
      <p className="flex flex-wrap gap-2">
        {view.kind === "official" ? (
          <ButtonLink variant="primary" to="/exam/examTab/officialTest">
            <Trans>Official exams</Trans>
          </ButtonLink>
        ) : (
          <ButtonLink variant="primary" to="/exam/examTab/mockTest">
            <Trans>Mock exams</Trans>
          </ButtonLink>
        )}
        <ButtonLink to="/exam/examTab/testRecord">
          <Trans>Exam records</Trans>
        </ButtonLink>
      </p>
    </div>
  );
}

function LocalResult({ attempt }: { attempt: AttemptRow }) {
  const online = useOnline();
  const cached = useMemo(() => readCachedPaper(attempt.paperId), [attempt.paperId]);
  const catalog = useQuery({ ...examQueries.catalog(), enabled: cached === null && online });
  const waiting = useOfflineQuery<number, number>(
    (db) => waitingSubmissions(db, attempt.attemptId),
    [attempt.attemptId],
    0,
  );
  const view = viewOfLocal(attempt, paperSummary(attempt.paperId, cached, catalog.data?.papers));
  return <ResultBody view={view} waitingToSync={waiting > 0} />;
}

/** A result from the server: for `?uuid=`, and for `?attempt=` of an attempt made on another device. */
function ServerResult({ uuid }: { uuid: string }) {
  const { t } = useLingui();
  const online = useOnline();
  const record = useQuery(examRecordQuery(uuid));
  if (record.isPending) return <Spinner className="mx-auto my-16 size-8" />;
  if (record.isError) {
    // The server's own answer ("does not exist"): asking again changes nothing.
    const refusal = serverRefusal(record.error);
    if (refusal) {
      const reason = refusal.msg;
      return (
        <div role="alert" className="mx-auto max-w-md space-y-3 py-12 text-center">
          <p>{typeof reason === "string" && reason ? reason : t`This exam result was not found.`}</p>
          <Link to="/exam/examTab/testRecord" className={buttonClass("secondary")}>
            <Trans>Exam records</Trans>
          </Link>
        </div>
      );
    }
    return (
      <LoadFailed
        message={t`This exam result could not be loaded.`}
        detail={!online && t`You are offline: connect to the internet and try again.`}
        onRetry={() => void record.refetch()}
        backTo="/exam/examTab/testRecord"
        backLabel={<Trans>Exam records</Trans>}
      />
    );
  }
  return <ResultBody view={viewOfRecord(record.data)} waitingToSync={false} />;
}

/**
 * `/exam/examResult?attempt=` (a mock attempt on this device; works offline) or `?uuid=` (a
 * record on the server). An `?attempt=` that is not on this device (taken on another one) is
 * loaded from the server when online — a mock attempt's id is its record's uuid.
 */
export default function ExamResultPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const online = useOnline();
  const uuid = params.get("uuid") ?? "";
  const localId = params.get("attempt") ?? uuid;
  const db = useOfflineDb();
  const attempt = useOfflineQuery<AttemptRow | null>(async (d) => (localId ? storedAttempt(d, localId) : null), [localId], undefined);

  if (db && attempt === undefined) return <Spinner className="mx-auto my-16 size-8" />;
  if (attempt && attempt.status === "submitted") return <LocalResult attempt={attempt} />;
  if (attempt && attempt.status === "in_progress") {
    return (
      <div className="mx-auto max-w-md space-y-3 py-12 text-center">
        <p>{t`This mock exam has not been submitted yet.`}</p>
        <Link to={`/exam/my_test_detail?attempt=${encodeURIComponent(attempt.attemptId)}`} className={buttonClass("primary")}>
          <Trans>Continue</Trans>
        </Link>
      </div>
    );
  }
  if (uuid) return <ServerResult uuid={uuid} />;
  if (localId && online) return <ServerResult uuid={localId} />;
  return (
    <div role="alert" className="mx-auto max-w-md space-y-3 py-12 text-center">
      {localId ? (
        <>
          <CloudOff aria-hidden className="mx-auto size-10 text-slate-400" />
          <p>{t`This exam result is not on this device. Connect to the internet to load it from the server.`}</p>
        </>
      ) : (
        <p>{t`No exam result was chosen.`}</p>
      )}
      <Link to="/exam/examTab/testRecord" className={buttonClass("primary")}>
        <Trans>Exam records</Trans>
      </Link>
    </div>
  );
}
