import { Suspense, lazy, useMemo, useState, type FormEvent } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BrainCircuit, CalendarClock, CheckCircle2, CloudOff, Target, XCircle } from "lucide-react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { answerMarks, gradeAnswer } from "../../../shared/exam/grading.ts";
import { DEFAULT_RETENTION, inShortStep, newCardState, previewRatings, type CardState, type ReviewGrade } from "../../../shared/exam/review.ts";
import type { GivenAnswer } from "../../../shared/exam/types.ts";
import { weakestTopic } from "../../../shared/exam/mastery.ts";
import type { MasteryTopic } from "../../../shared/sync/review.ts";
import { useDeviceMastery, useReviewList, useReviewRetention } from "../../offline/index.ts";
import { readReviewQueue, recordReview, setReviewRetention, useOfflineDb, weakestQuestions, type MemberDb, type QuestionRow } from "../../offline/index.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { useOnline } from "../../browser/useOnline.ts";
import { LogInFirst } from "./LogInFirst.tsx";
import { SaveDueBanks } from "./SaveDueBanks.tsx";
import { AnswerAndAnalysis, QuestionView, TYPE_LABELS, emptyAnswer, isAnswered } from "./QuestionView.tsx";
import { dueDays, formatDue, formatInterval, masteryQuery, minutesOf } from "./reviewApi.ts";
import { useMinuteClock } from "./useMinuteClock.ts";
import { Button } from "../../ui/Button.tsx";

const MasteryChart = lazy(() => import("./MasteryChart.tsx").then((m) => ({ default: m.MasteryChart })));

const RETENTIONS = [0.8, 0.85, 0.9, 0.95];

interface SessionItem {
  question: QuestionRow;
  bankId: number;
  /** Its card when the session started (null: never reviewed). */
  card: CardState | null;
  /** Asked again: it was answered wrong earlier in this session. */
  again?: boolean;
}

/** A rating button: its name and, under it, how long until the question comes back with it. */
function RateButton({ label, interval, primary, disabled, onClick }: { label: string; interval: string; primary?: boolean; disabled: boolean; onClick(): void }) {
  return (
    <Button variant={primary ? "primary" : "secondary"} className="flex-col gap-0 py-1" disabled={disabled} onClick={onClick}>
      <span>{label}</span>
      <span className={`text-xs font-normal tabular-nums ${primary ? "text-white/90" : "text-slate-600 dark:text-slate-300"}`}>{interval}</span>
    </Button>
  );
}

/**
 * One review session: each question answered, graded on the device, rated, scheduled (offline).
 * Each rating button says when the question would come back with it; a question answered wrong
 * takes FSRS's short relearning step and is asked again before the session ends, until it is
 * answered right. The summary says when the session's questions come back.
 */
function ReviewSession({ db, items: first, onDone }: { db: MemberDb; items: SessionItem[]; onDone(): void }) {
  const { t, i18n } = useLingui();
  const retention = useReviewRetention(db) ?? DEFAULT_RETENTION;
  const [items, setItems] = useState(first);
  const [index, setIndex] = useState(0);
  const [draft, setDraft] = useState<GivenAnswer | null>(null);
  /** null: not checked yet; `graded` null: the device cannot grade it (the member says); `at`: when checked (the intervals are from then). */
  const [checked, setChecked] = useState<{ graded: boolean | null; at: number } | null>(null);
  const [verdict, setVerdict] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const [tally, setTally] = useState({ right: 0, wrong: 0, graduated: 0 });
  /** Each question's card after its latest rating in this session. */
  const [after, setAfter] = useState<Map<number, CardState>>(() => new Map());
  /** The latest rating's card and when it was rated (the dates below are told from then). */
  const [last, setLast] = useState<{ card: CardState; at: number } | null>(null);
  const locale = i18n.locale;

  if (index >= items.length) {
    const { right, wrong } = tally;
    const now = last?.at ?? 0;
    const days = dueDays([...after.values()].map((card) => card.due));
    return (
      <section role="status" className="space-y-3 rounded-xl border border-emerald-200 bg-emerald-50 p-4 dark:border-emerald-900 dark:bg-emerald-950/40">
        <h2 className="flex items-center gap-2 text-lg font-semibold">
          <CheckCircle2 aria-hidden className="size-5 text-emerald-600" />
          <Trans>Review done</Trans>
        </h2>
        <p>{t`Right: ${right} · Wrong: ${wrong}`}</p>
        {tally.graduated > 0 && <p>{t`${plural(tally.graduated, { one: "# question left the wrong book: answered right enough times in a row.", other: "# questions left the wrong book: answered right enough times in a row." })}`}</p>}
        {days.length > 0 && (
          <div className="space-y-1">
            <h3 className="font-medium">
              <Trans>What comes next</Trans>
            </h3>
            <ul className="space-y-1 text-sm" aria-label={t`When these questions come back`}>
              {days.slice(0, 5).map(({ day, first: when, count }) => {
                const date = formatDue(when, now, locale);
                const interval = formatInterval(when - now, locale);
                return (
                  <li key={day} className="flex items-center gap-2 tabular-nums">
                    <CalendarClock aria-hidden className="size-4 shrink-0 text-emerald-700 dark:text-emerald-400" />
                    <span>{t`${date} (in ${interval}): ${plural(count, { one: "# question", other: "# questions" })}`}</span>
                  </li>
                );
              })}
            </ul>
          </div>
        )}
        <Button variant="primary" onClick={onDone}>
          <Trans>Back to the review list</Trans>
        </Button>
      </section>
    );
  }

  const { question, bankId, card: startCard, again } = items[index]!;
  const card = after.get(question.id) ?? startCard;
  const position = index + 1;
  const total = items.length;
  const value = draft ?? emptyAnswer(question);
  const correct = checked ? (checked.graded ?? verdict) : null;
  const preview = checked ? previewRatings(card ?? newCardState(question.id), checked.at, retention) : null;
  const intervalOf = (due: number) => formatInterval(due - checked!.at, locale);

  function check(event: FormEvent) {
    event.preventDefault();
    if (!isAnswered(question, value) || checked) return;
    const graded = question.answer === undefined ? null : gradeAnswer({ type: question.type, answer: question.answer, score: question.score }, value).correct;
    setChecked({ graded, at: Date.now() });
  }

  async function rate(grade: ReviewGrade | null) {
    if (correct === null || saving) return;
    setSaving(true);
    try {
      const outcome = await recordReview(db, { bankId, question, answer: value, correct, grade });
      setTally((n) => ({ right: n.right + (correct ? 1 : 0), wrong: n.wrong + (correct ? 0 : 1), graduated: n.graduated + (outcome.graduated ? 1 : 0) }));
      setAfter((m) => new Map(m).set(question.id, outcome.card));
      setLast({ card: outcome.card, at: checked!.at });
      // Still in its short step (answered wrong): asked again after the others, however soon.
      if (inShortStep(outcome.card)) setItems((list) => [...list, { question, bankId, card: outcome.card, again: true }]);
      setIndex((i) => i + 1);
      setDraft(null);
      setChecked(null);
      setVerdict(null);
    } finally {
      setSaving(false);
    }
  }

  const lastDue = last ? formatDue(last.card.due, last.at, locale) : "";
  return (
    <form onSubmit={check} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      {last && (
        <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <CalendarClock aria-hidden className="size-4 shrink-0" />
          {inShortStep(last.card) ? t`The previous question comes back later in this session.` : t`The previous question comes back ${lastDue}.`}
        </p>
      )}
      <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
        {t`Review ${position} of ${total}`}
        {again && <span className="ms-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">{t`Again: answered wrong earlier`}</span>}
      </p>
      <QuestionView key={`${question.id}:${index}`} question={question} value={value} onChange={setDraft} disabled={checked !== null} marks={checked ? answerMarks(question, value) : null} />
      {checked && (
        <div role="status" className={`space-y-2 rounded-lg p-4 ${correct === false ? "bg-red-50 dark:bg-red-950/40" : correct === true ? "bg-emerald-50 dark:bg-emerald-950/40" : "bg-slate-50 dark:bg-slate-800"}`}>
          {correct !== null && (
            <p className="flex items-center gap-2 font-medium">
              {correct ? <CheckCircle2 aria-hidden className="size-5 text-emerald-600" /> : <XCircle aria-hidden className="size-5 text-red-600" />}
              {correct ? t`Correct` : t`Wrong`}
            </p>
          )}
          <AnswerAndAnalysis question={question} answerClass="text-sm" analysisClass="text-sm" />
        </div>
      )}
      {!checked ? (
        <Button variant="primary" type="submit" disabled={!isAnswered(question, value)}>
          <Trans>Check my answer</Trans>
        </Button>
      ) : correct === null ? (
        <div className="space-y-2">
          <p className="text-sm">{t`This answer cannot be checked on the device. Compare it with the answer above: did you get it right?`}</p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setVerdict(false)}>
              <Trans>I got it wrong</Trans>
            </Button>
            <Button onClick={() => setVerdict(true)}>
              <Trans>I got it right</Trans>
            </Button>
          </div>
        </div>
      ) : correct ? (
        <div className="space-y-2">
          <p className="text-sm text-slate-600 dark:text-slate-300">{t`How was it? (Good unless you say otherwise)`}</p>
          <div className="grid grid-cols-3 gap-2">
            <RateButton label={t`Hard`} interval={intervalOf(preview!.hard)} disabled={saving} onClick={() => void rate("hard")} />
            <RateButton label={t`Good`} interval={intervalOf(preview!.good)} primary disabled={saving} onClick={() => void rate(null)} />
            <RateButton label={t`Easy`} interval={intervalOf(preview!.easy)} disabled={saving} onClick={() => void rate("easy")} />
          </div>
        </div>
      ) : (
        <div className="space-y-2">
          <p className="text-sm text-slate-600 dark:text-slate-300">{t`It comes back in a few minutes, again in this session.`}</p>
          <div className="grid grid-cols-1 gap-2 sm:w-48">
            <RateButton label={t`Next`} interval={intervalOf(preview!.again)} primary disabled={saving} onClick={() => void rate(null)} />
          </div>
        </div>
      )}
    </form>
  );
}

/** Desired retention: how sure the member wants to be of remembering when a question comes back. */
function RetentionSetting({ db }: { db: MemberDb }) {
  const { t } = useLingui();
  const retention = useReviewRetention(db) ?? DEFAULT_RETENTION;
  const choices = RETENTIONS.includes(retention) ? RETENTIONS : [...RETENTIONS, retention].sort();
  return (
    <label className="flex flex-wrap items-center gap-2 text-sm">
      <span>{t`Desired retention`}</span>
      <select
        value={retention}
        onChange={(e) => void setReviewRetention(db, Number(e.target.value))}
        className="min-h-11 rounded-md border border-slate-300 bg-white px-2 dark:border-slate-600 dark:bg-slate-900"
      >
        {choices.map((r) => (
          <option key={r} value={r}>
            {Math.round(r * 100)}%
          </option>
        ))}
      </select>
      <span className="text-slate-600 dark:text-slate-400">{t`Higher: questions come back sooner and more often.`}</span>
    </label>
  );
}

/**
 * Mastery by topic and question type, the chart and the weakest topic: from the server (every
 * device's answers) when it answers, else from this device's own answers and reviews (offline).
 */
function MasteryPanel({ db, now, bankId, onWeakest }: { db: MemberDb; now: number; bankId: number | null; onWeakest(topic: MasteryTopic): void }) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const queryClient = useQueryClient();
  const server = useQuery({ ...masteryQuery(), enabled: online });
  const fromDevice = !online || server.isError;
  const device = useDeviceMastery(db, now, fromDevice, bankId ?? undefined);
  const mastery = fromDevice ? { data: device, isPending: device === undefined, isError: false } : server;
  const topics = useMemo(() => (mastery.data?.topics ?? []).filter((topic) => bankId === null || topic.bankId === bankId), [mastery.data, bankId]);
  const labelOf = (topic: MasteryTopic) => `${topic.title} · ${topic.type in TYPE_LABELS ? i18n._(TYPE_LABELS[topic.type as keyof typeof TYPE_LABELS]) : topic.type}`;
  const weeks = useMemo(() => [...new Set(topics.flatMap((topic) => topic.weeks.map((w) => w.week)))].sort(), [topics]);
  const series = useMemo(
    () =>
      [...topics]
        .sort((a, b) => b.answered - a.answered)
        .slice(0, 5)
        .map((topic) => {
          const byWeek = new Map(topic.weeks.map((w) => [w.week, w]));
          return { label: labelOf(topic), values: weeks.map((week) => { const w = byWeek.get(week); return w && w.answered > 0 ? Math.round((w.correct / w.answered) * 100) : null; }) };
        }),
    // labelOf reads the language through i18n.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [topics, weeks, i18n.locale],
  );
  const weakest = weakestTopic(topics);
  const weakestLabel = weakest ? labelOf(weakest) : "";

  return (
    <section aria-labelledby="mastery-title" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="mastery-title" className="text-lg font-semibold">
          <Trans>Mastery by topic</Trans>
        </h2>
        {online && (
          <Button variant="bare" className="min-h-11 rounded-sm px-2 text-sm text-primary" onClick={() => void queryClient.invalidateQueries({ queryKey: masteryQuery().queryKey })}>
            <Trans>Refresh</Trans>
          </Button>
        )}
      </div>
      {fromDevice && (
        <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <CloudOff aria-hidden className="size-4 shrink-0" />
          {t`Offline: counted from this device's answers and reviews. Back online, every device's answers count.`}
        </p>
      )}
      {mastery.isPending ? (
        <Spinner className="mx-auto my-6 size-6" />
      ) : mastery.isError ? (
        <p role="alert" className="text-sm">{t`Mastery could not be loaded.`}</p>
      ) : topics.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{t`Answer some questions first: mastery shows per topic and question type.`}</p>
      ) : (
        <>
          {weeks.length > 0 && (
            <Suspense fallback={<Spinner className="mx-auto my-6 size-6" />}>
              <MasteryChart weeks={weeks} series={series} />
            </Suspense>
          )}
          <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label={t`Mastery by topic and question type`}>
            {topics.map((topic) => {
              const pct = topic.mastery === null ? null : Math.round(topic.mastery * 100);
              const answered = topic.answered;
              const rate = answered > 0 ? Math.round((topic.correct / answered) * 100) : 0;
              const due = topic.dueReviews;
              return (
                <li key={`${topic.bankId}:${topic.type}`} className="space-y-1 py-2 text-sm">
                  <div className="flex items-center gap-2">
                    <span className="min-w-0 flex-1 font-medium">{labelOf(topic)}</span>
                    {pct !== null && (
                      <span className="flex shrink-0 items-center gap-2">
                        <span aria-hidden className="h-2 w-16 overflow-hidden rounded bg-slate-200 dark:bg-slate-700">
                          <span className={`block h-full ${pct < 50 ? "bg-red-500" : pct < 80 ? "bg-amber-500" : "bg-emerald-500"}`} style={{ width: `${pct}%` }} />
                        </span>
                        <span className="text-right whitespace-nowrap tabular-nums">{t`Mastery ${pct}%`}</span>
                      </span>
                    )}
                  </div>
                  <p className="text-slate-600 tabular-nums dark:text-slate-400">{t`Answered ${answered} · correct ${rate}% · ${due} due`}</p>
                </li>
              );
            })}
          </ul>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {t`Mastery: how likely you are to answer each question you have a result for right now (one whose latest answer was wrong counts 0). Correct rate: the share of all your answers that were right. Answers waiting for a teacher count in neither.`}
          </p>
          {weakest && (
            <Button variant="primary" className="w-full sm:w-auto" onClick={() => onWeakest(weakest)}>
              <Target aria-hidden className="size-4" />
              {t`Practise my weakest topic: ${weakestLabel}`}
            </Button>
          )}
        </>
      )}
    </section>
  );
}

/**
 * `/exam/examTab/review` (`?id=` one bank, or every bank): the questions of the wrong book and
 * favourites due today, reviewed on the device with FSRS scheduling (offline), the desired
 * retention, and mastery by topic with "practise my weakest topic".
 */
export default function ReviewTab() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const asked = Number(params.get("id") ?? "");
  const bankId = Number.isSafeInteger(asked) && asked > 0 ? asked : null;
  const db = useOfflineDb() ?? undefined;
  const now = useMinuteClock();
  // The figures and the first due questions; the whole due list is read when a review starts.
  const queue = useReviewList(db, now, bankId ?? undefined);
  const [session, setSession] = useState<SessionItem[] | null>(null);
  const [weakNote, setWeakNote] = useState<string | null>(null);

  if (!db) {
    return (
      <LogInFirst>
        <Trans>Please log in to review.</Trans>
      </LogInFirst>
    );
  }
  if (session) return <ReviewSession db={db} items={session} onDone={() => setSession(null)} />;
  if (!queue) return <Spinner className="mx-auto my-12 size-8" />;

  const due = queue.due;
  const more = due - queue.first.length;
  async function startReview() {
    const { due: entries } = await readReviewQueue(db!, now, bankId ?? undefined);
    if (entries.length > 0) setSession(entries.map((e) => ({ question: e.question, bankId: e.bank.id, card: e.card })));
  }
  async function practiseWeakest(topic: MasteryTopic) {
    const picked = await weakestQuestions(db!, topic.bankId, topic.type, Date.now());
    if (picked.length === 0) {
      const title = topic.title;
      setWeakNote(t`Save “${title}” for offline first (open it in practice once), then try again.`);
      return;
    }
    setWeakNote(null);
    setSession(picked.map((p) => ({ question: p.question, bankId: p.bank.id, card: p.card })));
  }

  return (
    <div className="space-y-4">
      <section aria-labelledby="review-title" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <h2 id="review-title" className="flex items-center gap-2 text-lg font-semibold">
          <BrainCircuit aria-hidden className="size-5 text-primary" />
          <Trans>Spaced review</Trans>
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t`Your wrong questions and favourites come back just before you would forget them.`}
        </p>
        {queue.queued === 0 ? (
          <p className="text-slate-600 dark:text-slate-300">{t`Nothing to review yet: questions you answer wrong or add to favourites appear here.`}</p>
        ) : (
          <>
            {/* Due only in banks not saved here: the note below says so (never "nothing is due" beside the menu's count). */}
            {(due > 0 || queue.dueElsewhere === 0) && (
              <p role="status" className="text-base font-medium">
                {due > 0
                  ? t`${plural(due, { one: "# question due", other: "# questions due" })} · about ${plural(minutesOf(queue.estimateSeconds), { one: "# minute", other: "# minutes" })}`
                  : t`Nothing is due today. Well done!`}
              </p>
            )}
            <p className="text-sm text-slate-600 dark:text-slate-400">{t`${plural(queue.queued, { one: "# question in your review queue", other: "# questions in your review queue" })}`}</p>
            {queue.dueElsewhere > 0 && <SaveDueBanks db={db} count={queue.dueElsewhere} />}
            {due > 0 && (
              <Button variant="primary" className="w-full sm:w-auto" onClick={() => void startReview()}>
                <Trans>Start review</Trans>
              </Button>
            )}
            {due > 0 && (
              <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800" aria-label={t`Due questions`}>
                {queue.first.map((e) => (
                  <li key={e.questionId} className="flex items-center gap-2 py-2">
                    <span className="min-w-0 flex-1 truncate">{e.question.stem}</span>
                    <span className="shrink-0 text-xs text-slate-500 dark:text-slate-400">{e.source === "favourite" ? t`Favourite` : t`Wrong book`}</span>
                  </li>
                ))}
                {more > 0 && <li className="py-2 text-slate-600 dark:text-slate-400">{t`and ${more} more`}</li>}
              </ul>
            )}
          </>
        )}
        <RetentionSetting db={db} />
      </section>
      {weakNote && (
        <p role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
          {weakNote}
        </p>
      )}
      <MasteryPanel
        db={db}
        now={now}
        bankId={bankId}
        onWeakest={(topic) => {
          if (bankId === null || topic.bankId === bankId) void practiseWeakest(topic);
          else void navigate(`/exam/examTab/review?id=${topic.bankId}`);
        }}
      />
    </div>
  );
}
