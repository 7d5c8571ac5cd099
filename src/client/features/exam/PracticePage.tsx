import { useEffect, useState, type FormEvent } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { CheckCircle2, ChevronLeft, ChevronRight, CloudOff, Star, XCircle } from "lucide-react";
import { useSearchParams } from "react-router-dom";
import type { GivenAnswer } from "../../../shared/exam/types.ts";
import { answerPractice, saveBank, setFavourite, setProgress } from "../../offline/repository.ts";
import { useBank, useBankAnswers, useBankQuestions, useFavourites, useProgress } from "../../offline/hooks.ts";
import { useOfflineDb } from "../../offline/index.ts";
import { useOnline } from "../../ui/useOnline.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { downloadBank } from "./api.ts";
import { QuestionView, answerText, emptyAnswer, isAnswered } from "./QuestionView.tsx";
import { LogInFirst } from "./LogInFirst.tsx";

type Download = "idle" | "loading" | "failed";

/**
 * `/exam/myPractice?bank=`: sequential practice, one question at a time, offline first: the bank
 * is kept on the device, answers are graded here at once and queued for the server.
 */
export default function PracticePage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const bankId = Number(params.get("bank"));
  const db = useOfflineDb() ?? undefined;
  const online = useOnline();
  const bank = useBank(db, bankId);
  const questions = useBankQuestions(db, bankId);
  const progress = useProgress(db, bankId);
  const answers = useBankAnswers(db, bankId);
  const favourites = useFavourites(db);
  const [download, setDownload] = useState<Download>("idle");
  const [index, setIndex] = useState<number | null>(null);
  const [draft, setDraft] = useState<GivenAnswer | null>(null);
  const [result, setResult] = useState<{ correct: boolean | null; score: number } | null>(null);

  // Keep the bank on the device: download it when missing or changed (when online).
  useEffect(() => {
    if (!db || !Number.isInteger(bankId) || bankId <= 0 || !online) return;
    let live = true;
    downloadBank(bankId).then(
      async (data) => {
        const stored = await db.banks.get(bankId);
        if (!live || String(stored?.version) === data.bank.version) return;
        await saveBank(db, { id: data.bank.id, classifyId: data.bank.id, title: data.bank.title, version: data.bank.version }, data.questions);
      },
      () => live && setDownload("failed"),
    );
    return () => {
      live = false;
    };
  }, [db, bankId, online]);

  if (!db) {
    return (
      <LogInFirst>
        <Trans>Please log in to practise.</Trans>
      </LogInFirst>
    );
  }
  if (bank === undefined || questions === undefined || progress === undefined) return <Spinner className="mx-auto my-16 size-8" />;
  if (bank === null || questions.length === 0) {
    return (
      <div role="status" className="mx-auto max-w-md space-y-3 py-12 text-center">
        {online && download !== "failed" ? (
          <Spinner className="mx-auto size-8" />
        ) : (
          <>
            <CloudOff aria-hidden className="mx-auto size-10 text-slate-400" />
            <p>{t`This question bank is not on this device yet. Open it once while online to practise offline.`}</p>
          </>
        )}
      </div>
    );
  }

  const total = questions.length;
  const current = Math.min(index ?? progress?.position ?? 0, total - 1);
  const question = questions[current]!;
  const value = draft ?? emptyAnswer(question);
  const isFavourite = favourites?.some((f) => f.questionId === question.id) ?? false;
  const position = current + 1;

  const go = (next: number) => {
    const clamped = Math.max(0, Math.min(total - 1, next));
    setIndex(clamped);
    setDraft(null);
    setResult(null);
    void setProgress(db, bankId, clamped);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!isAnswered(question, value) || result) return;
    // Stay on this question (answering moves the saved progress to the next one).
    setIndex(current);
    setResult(await answerPractice(db!, { bankId, question, answer: value }));
  }

  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-lg font-semibold">{bank.title}</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
          {t`Question ${position} of ${total}`}
        </p>
      </header>

      <form onSubmit={submit} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <div className="flex justify-end">
          <button
            type="button"
            aria-pressed={isFavourite}
            onClick={() => void setFavourite(db, question.id, !isFavourite)}
            className="inline-flex min-h-11 items-center gap-1 rounded-md px-3 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            <Star aria-hidden className={`size-5 ${isFavourite ? "fill-amber-400 text-amber-500" : "text-slate-500"}`} />
            {isFavourite ? t`Favourite` : t`Add to favourites`}
          </button>
        </div>
        <QuestionView key={question.id} question={question} value={value} onChange={setDraft} disabled={result !== null} />
        {result && (
          <div role="status" className={`rounded-lg p-4 ${result.correct === false ? "bg-red-50 dark:bg-red-950/40" : "bg-emerald-50 dark:bg-emerald-950/40"}`}>
            <p className="flex items-center gap-2 font-medium">
              {result.correct === false ? <XCircle aria-hidden className="size-5 text-red-600" /> : <CheckCircle2 aria-hidden className="size-5 text-emerald-600" />}
              {result.correct === true ? t`Correct` : result.correct === false ? t`Wrong` : t`Answer saved; it will be reviewed`}
            </p>
            <p className="mt-2 text-sm">
              <span className="font-medium">{t`Answer:`}</span> {answerText(question, question.answer, { true: t`True`, false: t`False` })}
            </p>
            {question.analysis && (
              <p className="mt-1 text-sm">
                <span className="font-medium">{t`Analysis:`}</span> {question.analysis}
              </p>
            )}
          </div>
        )}
        <div className="flex items-center justify-between gap-2">
          <button type="button" onClick={() => go(current - 1)} disabled={current === 0} className="inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3 disabled:opacity-40 dark:border-slate-600">
            <ChevronLeft aria-hidden className="size-4" />
            <Trans>Previous</Trans>
          </button>
          {result ? (
            <button type="button" onClick={() => go(current + 1)} disabled={current === total - 1} className="min-h-11 rounded-md bg-primary px-5 font-medium text-white disabled:opacity-40">
              <Trans>Next question</Trans>
            </button>
          ) : (
            <button type="submit" disabled={!isAnswered(question, value)} className="min-h-11 rounded-md bg-primary px-5 font-medium text-white disabled:opacity-40">
              <Trans>Submit answer</Trans>
            </button>
          )}
          <button type="button" onClick={() => go(current + 1)} disabled={current === total - 1} className="inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3 disabled:opacity-40 dark:border-slate-600">
            <Trans>Skip</Trans>
            <ChevronRight aria-hidden className="size-4" />
          </button>
        </div>
      </form>

      <nav aria-label={t`Jump to a question`} className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
        <ol className="grid grid-cols-[repeat(auto-fill,minmax(2.75rem,1fr))] gap-2">
          {questions.map((q, i) => {
            const a = answers?.get(q.id);
            const n = i + 1;
            const state = a ? (a.correct === false ? t`answered wrong` : t`answered`) : t`not answered`;
            return (
              <li key={q.id}>
                <button
                  type="button"
                  onClick={() => go(i)}
                  aria-current={i === current ? "step" : undefined}
                  aria-label={t`Question ${n}, ${state}`}
                  className={`min-h-11 w-full rounded-md border text-sm ${i === current ? "ring-2 ring-primary" : ""} ${
                    a ? (a.correct === false ? "border-red-300 bg-red-50 text-red-800 dark:bg-red-950/40 dark:text-red-200" : "border-emerald-300 bg-emerald-50 text-emerald-800 dark:bg-emerald-950/40 dark:text-emerald-200") : "border-slate-200 dark:border-slate-700"
                  }`}
                >
                  {n}
                  {a && <span aria-hidden>{a.correct === false ? "✗" : "✓"}</span>}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
    </div>
  );
}
