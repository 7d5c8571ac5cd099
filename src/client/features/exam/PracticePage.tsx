import { useEffect, useState, type FormEvent } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { CheckCircle2, ChevronLeft, ChevronRight, CloudOff, Star, XCircle } from "lucide-react";
import { Link, useSearchParams } from "react-router-dom";
import { answerMarks } from "../../../shared/exam/grading.ts";
import type { GivenAnswer } from "../../../shared/exam/types.ts";
import { answerPractice, localBankTitle, rememberBankTitle, saveBank, setFavourite, setProgress, storedBank } from "../../offline/index.ts";
import { openingIndex, practiceWindow, useBankQuestions, usePracticeBank, usePracticeState, useQuestionBook } from "../../offline/index.ts";
import { useOfflineDb } from "../../offline/index.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { serverRefusal } from "../../api/errors.ts";
import { downloadBank } from "./bankDownload.ts";
import { QuestionGrid } from "./QuestionGrid.tsx";
import { AnswerAndAnalysis, QuestionView, emptyAnswer, isAnswered } from "./QuestionView.tsx";
import { LogInFirst } from "./LogInFirst.tsx";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { BackButton } from "../../ui/BackButton.tsx";

/** The way on from a bank that cannot be opened. */
function BackToBanks() {
  return (
    <Link to="/exam/myTest" className={buttonClass("secondary")}>
      <Trans>Back to the question banks</Trans>
    </Link>
  );
}

/**
 * Fetching the bank from the server: not answered yet, answered (saved, with how many questions
 * it had), failed to reach the server, or refused by it (no such bank, or one kept for exams)
 * with its message.
 */
type Download = { state: "idle" } | { state: "done"; questions: number } | { state: "failed" } | { state: "missing"; msg: string };

/** A set practised instead of the whole bank: the member's wrong questions or favourites in it. */
type PracticeSet = "wrong" | "favourites";

/** An answer given in this session of a set (the set shows only these, not earlier ones). */
interface SessionAnswer {
  answer: GivenAnswer;
  correct: boolean | null;
  score: number;
}

/**
 * `/exam/myPractice?bank=`: sequential practice, one question at a time, offline first: the bank
 * is kept on the device, answers are graded here at once and queued for the server.
 * `&set=wrong` / `&set=favourites`: the member's wrong questions or favourites of the bank, as
 * they were when the session began (a right answer takes a question out of the wrong book, not
 * out of the session); answers are recorded as any practice, the bank's position is left alone.
 */
export default function PracticePage() {
  const { t, i18n } = useLingui();
  const [params] = useSearchParams();
  const setParam = params.get("set");
  const set: PracticeSet | null = setParam === "wrong" || setParam === "favourites" ? setParam : null;
  const asked = Number(params.get("bank") ?? "");
  // Without a usable `?bank=` there is nothing to open (0 is no bank, and a valid key for the device's database).
  const validBank = Number.isSafeInteger(asked) && asked > 0;
  const bankId = validBank ? asked : 0;
  const db = useOfflineDb() ?? undefined;
  const online = useOnline();
  // Two reads, one transaction each: the bank with its question ids, and what was done in it;
  // then the questions near the one shown (`practiceWindow`), not the whole bank. A page that
  // started here has them read already for its first render (offline/practiceOpen.ts).
  const content = usePracticeBank(db, bankId);
  const state = usePracticeState(db, bankId);
  const bank = content?.bank;
  const ids = content?.ids;
  const progress = state?.progress;
  const answers = state?.answers;
  const favourites = state?.favourites;
  const book = useQuestionBook(set ? db : undefined, set ?? "wrong");
  // The set's questions, fixed when the session begins (for this bank and set).
  const [session, setSession] = useState<{ key: string; ids: ReadonlySet<number> } | null>(null);
  const sessionKey = `${bankId}:${set ?? ""}`;
  const [given, setGiven] = useState<{ key: string; answers: ReadonlyMap<number, SessionAnswer> }>({ key: sessionKey, answers: new Map() });
  const sessionAnswers = given.key === sessionKey ? given.answers : new Map<number, SessionAnswer>();
  if (set && book !== undefined && ids !== undefined && ids.length > 0 && session?.key !== sessionKey) {
    setSession({ key: sessionKey, ids: new Set(book.map((e) => e.questionId)) });
  }
  // The questions practised (the bank's, or the set's in bank order) and the one shown.
  const practised = ids && set && session ? ids.filter((id) => session.ids.has(id)) : (ids ?? []);
  const [fetched, setFetched] = useState<{ bankId: number; download: Download }>({ bankId, download: { state: "idle" } });
  const download: Download = fetched.bankId === bankId ? fetched.download : { state: "idle" };
  const setDownload = (next: Download) => setFetched({ bankId, download: next });
  const [tries, setTries] = useState(0);
  const [index, setIndex] = useState<number | null>(null);
  const [draft, setDraft] = useState<GivenAnswer | null>(null);
  const [result, setResult] = useState<{ correct: boolean | null; score: number } | null>(null);
  // The question being answered again: its last answer on the device is not shown meanwhile.
  const [again, setAgain] = useState<number | null>(null);
  const total = practised.length;
  const current = index === null && !set ? openingIndex(total, progress) : Math.max(0, Math.min(index ?? 0, total - 1));
  // The window of questions read: the current one's, with one neighbour beyond each end.
  const shownQuestions = useBankQuestions(db, bankId, progress === undefined ? [] : practiceWindow(practised, current));
  const read = shownQuestions?.rows.get(practised[current] ?? 0);

  // Keep the bank on the device: download it when missing or changed (when online).
  useEffect(() => {
    if (!db || !validBank || !online) return;
    let live = true;
    downloadBank(bankId, { quiet: true }).then(
      async (data) => {
        const stored = await storedBank(db, bankId);
        if (live && String(stored?.version) !== data.bank.version) {
          await saveBank(db, { id: data.bank.id, classifyId: data.bank.id, title: data.bank.title, version: data.bank.version, lang: i18n.locale }, data.questions);
        } else if (live) {
          // The same content, its name perhaps seen in this language for the first time.
          await rememberBankTitle(db, bankId, i18n.locale, data.bank.title);
        }
        if (live) setFetched({ bankId, download: { state: "done", questions: data.questions.length } });
      },
      (error: unknown) => {
        if (!live) return;
        // The server's answer (unknown bank, or one kept for exams) says so; else the network failed.
        const refusal = serverRefusal(error);
        setFetched({ bankId, download: refusal ? { state: "missing", msg: refusal.msg } : { state: "failed" } });
      },
    );
    return () => {
      live = false;
    };
  }, [db, bankId, validBank, online, tries, i18n.locale]);

  if (!db) {
    return (
      <LogInFirst>
        <Trans>Please log in to practise.</Trans>
      </LogInFirst>
    );
  }
  if (!validBank) {
    return (
      <div role="alert" className="mx-auto max-w-md space-y-3 py-12 text-center">
        <p>{t`No question bank was chosen.`}</p>
        <BackToBanks />
      </div>
    );
  }
  if (bank === undefined || ids === undefined || progress === undefined || (set && bank && ids.length > 0 && session?.key !== sessionKey)) {
    return <Spinner className="mx-auto my-16 size-8" />;
  }
  if (bank === null || ids.length === 0) {
    // What the device holds is used; the server's word decides only when it has nothing.
    if (online && download.state === "missing") {
      return (
        <div role="alert" className="mx-auto max-w-md space-y-3 py-12 text-center">
          <p>{download.msg || t`This question bank was not found.`}</p>
          <BackToBanks />
        </div>
      );
    }
    // Saved, and the device's live queries not caught up with it yet: a moment more.
    if (online && download.state === "done" && download.questions > 0) return <Spinner className="mx-auto my-16 size-8" />;
    if (online && download.state === "done") {
      return (
        <div role="status" className="mx-auto max-w-md space-y-3 py-12 text-center">
          <p>{t`This question bank has no questions yet.`}</p>
          <BackToBanks />
        </div>
      );
    }
    if (online && download.state === "idle") return <Spinner className="mx-auto my-16 size-8" />;
    return (
      <div role="status" className="mx-auto max-w-md space-y-3 py-12 text-center">
        <CloudOff aria-hidden className="mx-auto size-10 text-slate-400" />
        <p>{t`This question bank is not on this device yet. Open it once while online to practise offline.`}</p>
        {online && (
          <Button
            variant="primary"
            onClick={() => {
              setDownload({ state: "idle" });
              setTries((n) => n + 1);
            }}
          >
            <Trans>Try again</Trans>
          </Button>
        )}
        <BackToBanks />
      </div>
    );
  }

  const shownTitle = localBankTitle(bank, i18n.locale);
  const backTo = set ? `/exam/examTab/${set === "wrong" ? "errorTopic" : "topicCollect"}?id=${bankId}` : `/exam/examTab/sortPractice?id=${bankId}`;
  if (practised.length === 0) {
    return (
      <div role="status" className="mx-auto max-w-md space-y-3 py-12 text-center">
        <p>{set === "favourites" ? t`None of your favourite questions is in this bank.` : t`None of your wrong questions is in this bank.`}</p>
        <Link to={backTo} className={buttonClass("secondary")}>
          <Trans>Back</Trans>
        </Link>
      </div>
    );
  }
  // The window with the question shown is being read (a jump far away): a moment.
  if (!read) return <Spinner className="mx-auto my-16 size-8" />;
  const question = read;
  // A question answered before (on this device; in a set, in this session) shows that answer and
  // its grading until the member answers it again.
  const last = result || again === question.id ? undefined : set ? sessionAnswers.get(question.id) : answers?.get(question.id);
  const shown = result ?? (last ? { correct: last.correct, score: last.score } : null);
  const value = draft ?? last?.answer ?? emptyAnswer(question);
  const isFavourite = favourites?.some((f) => f.questionId === question.id) ?? false;
  const position = current + 1;

  const go = (next: number) => {
    const clamped = Math.max(0, Math.min(total - 1, next));
    setIndex(clamped);
    setDraft(null);
    setResult(null);
    setAgain(null);
    // A set's place is its own: the bank's sequential position stays where it was.
    if (!set) void setProgress(db, bankId, clamped);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isAnswered(question, value) || shown) return;
    // Stay on this question (answering moves the saved progress to the next one).
    setIndex(current);
    const graded = await answerPractice(db!, { bankId, question, answer: value, ...(set ? { set } : {}) });
    setResult(graded);
    if (set) setGiven({ key: sessionKey, answers: new Map(sessionAnswers).set(question.id, { answer: value, correct: graded.correct, score: graded.score }) });
  }

  const right = [...sessionAnswers.values()].filter((a) => a.correct === true).length;
  const answeredHere = sessionAnswers.size;

  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <BackButton to={backTo} />
      <header className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h1 className="text-lg font-semibold">{shownTitle}</h1>
          {set && (
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {set === "wrong" ? t`My wrong questions` : t`Favourite questions`}
              {answeredHere > 0 && <> · {t`${right} of ${answeredHere} right`}</>}
            </p>
          )}
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
          {t`Question ${position} of ${total}`}
        </p>
      </header>

      <form onSubmit={submit} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <div className="flex justify-end">
          <Button
            variant="ghost"
            className="text-sm"
            aria-pressed={isFavourite}
            onClick={() => void setFavourite(db, question.id, !isFavourite)}
          >
            <Star aria-hidden className={`size-5 ${isFavourite ? "fill-amber-400 text-amber-500" : "text-slate-500"}`} />
            {isFavourite ? t`Favourite` : t`Add to favourites`}
          </Button>
        </div>
        <QuestionView key={question.id} question={question} value={value} onChange={setDraft} disabled={shown !== null} marks={shown ? answerMarks(question, value) : null} />
        {shown && (
          <div role="status" className={`rounded-lg p-4 ${shown.correct === false ? "bg-red-50 dark:bg-red-950/40" : "bg-emerald-50 dark:bg-emerald-950/40"}`}>
            <p className="flex items-center gap-2 font-medium">
              {shown.correct === false ? <XCircle aria-hidden className="size-5 text-red-600" /> : <CheckCircle2 aria-hidden className="size-5 text-emerald-600" />}
              {shown.correct === true ? t`Correct` : shown.correct === false ? t`Wrong` : t`Answer saved; it will be reviewed`}
            </p>
            <AnswerAndAnalysis question={question} answerClass="mt-2 text-sm" analysisClass="mt-1 text-sm" />
            {last && (
              <Button
                variant="link"
                className="mt-2 text-sm"
                onClick={() => {
                  setAgain(question.id);
                  setDraft(null);
                }}
              >
                <Trans>Answer again</Trans>
              </Button>
            )}
          </div>
        )}
        <div className="flex items-center justify-between gap-2">
          <Button onClick={() => go(current - 1)} disabled={current === 0}>
            <ChevronLeft aria-hidden className="size-4" />
            <Trans>Previous</Trans>
          </Button>
          {shown ? (
            <Button variant="primary" onClick={() => go(current + 1)} disabled={current === total - 1}>
              <Trans>Next question</Trans>
            </Button>
          ) : (
            <Button variant="primary" type="submit" disabled={!isAnswered(question, value)}>
              <Trans>Submit answer</Trans>
            </Button>
          )}
          <Button onClick={() => go(current + 1)} disabled={current === total - 1}>
            <Trans>Skip</Trans>
            <ChevronRight aria-hidden className="size-4" />
          </Button>
        </div>
      </form>

      <QuestionGrid
        states={practised.map((id) => {
          const a = set ? sessionAnswers.get(id) : answers?.get(id);
          return a ? (a.correct === false ? "wrong" : a.correct === true ? "correct" : "answered") : "unanswered";
        })}
        current={current}
        onJump={go}
      />
    </div>
  );
}
