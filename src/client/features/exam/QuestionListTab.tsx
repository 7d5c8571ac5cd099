import { useState } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { CloudDownload, CloudOff, HardDrive, Inbox, Play, Star, Trash2 } from "lucide-react";
import { Link, useSearchParams } from "react-router-dom";
import { formatTime } from "../../../shared/time.ts";
import type { ExamQuestion } from "../../../shared/exam/types.ts";
import { useOfflineDb } from "../../offline/index.ts";
import { saveDownloadedBank, useBookQuestions, useQuestionBook, type BookQuestion, type QuestionBookEntry } from "../../offline/index.ts";
import { localBankTitle, removeWrong, setFavourite } from "../../offline/index.ts";
import { useUserInfo } from "../../stores/userInfo.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { useOnline } from "../../browser/useOnline.ts";
import { downloadBank } from "./api.ts";
import { LogInFirst } from "./LogInFirst.tsx";
import { AnswerAndAnalysis, QuestionStem } from "./QuestionView.tsx";
import { questionLookupQuery } from "./questionLookup.ts";
import { Button, buttonClass } from "../../ui/Button.tsx";

type Kind = "favourites" | "wrong";

/** Entries shown at first, and added by each "show more". */
const PAGE_SIZE = 20;
type ShownQuestion = Omit<ExamQuestion, "answer" | "analysis"> & Partial<Pick<ExamQuestion, "answer" | "analysis">>;

/** "Wrong 3 times, last on 2026-01-02 10:00" (plural forms per language). */
export function useWrongCountText(): (count: number, last: string) => string {
  const { t } = useLingui();
  return (count, last) => t`${plural(count, { one: "Wrong # time", other: "Wrong # times" })}, last on ${last}`;
}

/** A bank not on this device, with the button that saves it for offline use. */
function SaveBank({ bankId, title, count }: { bankId: number; title: string; count: number }) {
  const { t, i18n } = useLingui();
  const db = useOfflineDb();
  const online = useOnline();
  const [state, setState] = useState<"idle" | "saving" | "failed">("idle");
  async function save() {
    if (!db) return;
    setState("saving");
    try {
      await saveDownloadedBank(db, await downloadBank(bankId), i18n.locale);
      // The list re-reads itself from the device once the bank is there.
    } catch {
      setState("failed");
    }
  }
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40">
      <CloudOff aria-hidden className="size-5 shrink-0 text-amber-700 dark:text-amber-300" />
      <p className="min-w-0 flex-1 basis-60">
        {t`${plural(count, { one: "# question here comes from", other: "# questions here come from" })} “${title}”, which is not saved on this device.`}
        {state === "failed" && <span className="block text-red-700 dark:text-red-300">{t`The bank could not be downloaded. Try again when online.`}</span>}
      </p>
      <Button
        variant="primary"
        className="w-full sm:w-auto"
        onClick={() => void save()}
        disabled={!online || state === "saving"}
      >
        {state === "saving" ? <Spinner className="size-4 text-white" /> : <CloudDownload aria-hidden className="size-4" />}
        {t`Save “${title}” for offline`}
      </Button>
    </li>
  );
}

/** Options, and on request the answer and analysis (when the member may see them). */
function QuestionBody({ question, onDevice }: { question: ShownQuestion; onDevice: boolean }) {
  const { t } = useLingui();
  const hasAnswer = question.answer !== undefined;
  const [open, setOpen] = useState(false);
  return (
    <>
      <QuestionStem question={question} optionsClass="mt-2 space-y-1 text-sm text-slate-700 dark:text-slate-200" />
      <details className="mt-2 text-sm" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="inline-flex min-h-11 cursor-pointer items-center text-primary">{open ? t`Hide the answer` : t`Show the answer`}</summary>
        {hasAnswer ? (
          <div className="space-y-1 pb-1">
            <AnswerAndAnalysis question={question as ExamQuestion} />
          </div>
        ) : (
          <p className="pb-1 text-slate-600 dark:text-slate-300">
            {onDevice
              ? t`The answer to this question is not available right now (for example while an exam uses it).`
              : t`Save this question's bank for offline to see its answer.`}
          </p>
        )}
      </details>
    </>
  );
}

/** Why a question cannot be shown: offline, still loading, the lookup failed, or it is gone. */
type Missing = "offline" | "loading" | "failed" | "gone";

function EntryCard({ kind, entry, stored, question, missing }: { kind: Kind; entry: QuestionBookEntry; stored: BookQuestion | undefined; question: ShownQuestion | null; missing: Missing }) {
  const { t, i18n } = useLingui();
  const db = useOfflineDb();
  const wrongText = useWrongCountText();
  const id = entry.questionId;
  const notes: Record<Missing, string> = {
    offline: t`Question ${id}: its bank is not on this device. Connect to the internet to see it.`,
    loading: t`Loading question ${id}…`,
    failed: t`Question ${id} could not be loaded.`,
    gone: t`Question ${id} is no longer available.`,
  };
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:flex-row sm:items-start dark:border-slate-700 dark:bg-slate-900">
      <div className="min-w-0 flex-1">
        {question ? <QuestionBody question={question} onDevice={entry.bankId !== null} /> : <p className="text-slate-700 dark:text-slate-200">{notes[missing]}</p>}
        <p className="mt-1 flex flex-wrap items-center gap-x-3 text-sm text-slate-600 dark:text-slate-300">
          {kind === "wrong" && <span>{wrongText(entry.count, formatTime(entry.at, "YYYY-MM-DD HH:mm"))}</span>}
          {stored?.bank && (
            <span className="inline-flex items-center gap-1">
              <HardDrive aria-hidden className="size-3.5" />
              {localBankTitle(stored.bank, i18n.locale)}
            </span>
          )}
        </p>
      </div>
      {db &&
        (kind === "favourites" ? (
          <Button
            variant="ghost"
            className="shrink-0 self-start text-sm"
            onClick={() => void setFavourite(db, id, false)}
          >
            <Star aria-hidden className="size-4 fill-amber-400 text-amber-500" />
            <Trans>Remove from favourites</Trans>
          </Button>
        ) : (
          <Button
            variant="ghost"
            className="shrink-0 self-start text-sm"
            onClick={() => void removeWrong(db, id)}
          >
            <Trash2 aria-hidden className="size-4" />
            <Trans>Remove from the book</Trans>
          </Button>
        ))}
    </li>
  );
}

/**
 * The favourite questions and the wrong-question book, from the device (so they work offline);
 * changes go through the outbox like every other. Questions whose bank is not on this device are
 * fetched when online (without answers) and their banks offered for saving.
 */
export function QuestionListTab({ kind }: { kind: Kind }) {
  const { t } = useLingui();
  const signedIn = useUserInfo((s) => Boolean(s.id && s.token));
  const db = useOfflineDb() ?? undefined;
  const online = useOnline();
  // `?id=`: the bank whose tab this is; its questions only (every bank's without one).
  const [params] = useSearchParams();
  const bankId = Number(params.get("id")) || 0;
  const book = useQuestionBook(db, kind);
  const missing = book?.filter((e) => e.bankId === null).map((e) => e.questionId) ?? [];
  const lookup = useQuery({ ...questionLookupQuery(missing), enabled: online && missing.length > 0 });
  const remote = new Map((lookup.data?.questions ?? []).map((q) => [q.id, q]));
  // A question's bank is known from the device's copy or the server's lookup; one not known yet
  // (offline, its bank not saved) stays listed with why it cannot be shown.
  const bankOf = (e: QuestionBookEntry) => e.bankId ?? remote.get(e.questionId)?.classifyId;
  const entries = bankId > 0 ? book?.filter((e) => (bankOf(e) ?? bankId) === bankId) : book;
  // The set "practise these" opens: this bank's questions (practice downloads the bank when it is not saved yet).
  const practisable = bankId > 0 ? (entries?.filter((e) => bankOf(e) === bankId).length ?? 0) : 0;
  // A page at a time: only the questions shown are read from the device.
  const [shown, setShown] = useState(PAGE_SIZE);
  const page = entries?.slice(0, shown);
  const stored = useBookQuestions(db, page);

  if (!signedIn) {
    return (
      <LogInFirst>
        <Trans>Please log in to practise.</Trans>
      </LogInFirst>
    );
  }
  // The member's database opens right after sign-in; the first read is one quick transaction.
  if (!db || entries === undefined || page === undefined || stored === undefined) return <Spinner className="mx-auto my-12 size-8" />;
  if (entries.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 py-12 text-center text-slate-600 dark:text-slate-300">
        <Inbox aria-hidden className="size-8 text-slate-500 dark:text-slate-400" />
        <p>{kind === "favourites" ? t`No favourite questions yet: tap the star while practising.` : t`No wrong questions: well done.`}</p>
      </div>
    );
  }

  // Banks to offer: those of the fetched questions not on this device.
  const offered = new Map<number, { title: string; count: number }>();
  for (const id of missing) {
    const q = remote.get(id);
    if (!q || (bankId > 0 && q.classifyId !== bankId)) continue;
    const title = lookup.data?.banks.find((b) => b.id === q.classifyId)?.title ?? "";
    const seen = offered.get(q.classifyId);
    offered.set(q.classifyId, { title, count: (seen?.count ?? 0) + 1 });
  }
  const shownCount = page.length;
  const totalCount = entries.length;
  const missingState: Missing = !online ? "offline" : lookup.isError ? "failed" : lookup.isSuccess ? "gone" : "loading";
  return (
    <div className="space-y-3">
      {practisable > 0 && (
        <Link to={`/exam/myPractice?bank=${bankId}&set=${kind}`} className={buttonClass("primary", "w-full sm:w-auto")}>
          <Play aria-hidden className="size-4" />
          {kind === "wrong"
            ? t`${plural(practisable, { one: "Practise my # wrong question", other: "Practise my # wrong questions" })}`
            : t`${plural(practisable, { one: "Practise my # favourite", other: "Practise my # favourites" })}`}
        </Link>
      )}
      {offered.size > 0 && (
        <ul className="space-y-2" aria-label={t`Banks not on this device`}>
          {[...offered].map(([bankId, bank]) => (
            <SaveBank key={bankId} bankId={bankId} title={bank.title} count={bank.count} />
          ))}
        </ul>
      )}
      <ul className="space-y-3">
        {page.map((entry) => {
          const onDevice = stored.get(entry.questionId);
          return (
            <EntryCard
              key={entry.questionId}
              kind={kind}
              entry={entry}
              stored={onDevice}
              question={onDevice?.question ?? remote.get(entry.questionId) ?? null}
              // On the device but not read yet: the next page's questions are on their way.
              missing={entry.bankId !== null ? "loading" : missingState}
            />
          );
        })}
      </ul>
      {entries.length > page.length && (
        <Button className="w-full sm:w-auto" onClick={() => setShown((n) => n + PAGE_SIZE)}>
          {t`Show more (${shownCount} of ${totalCount})`}
        </Button>
      )}
    </div>
  );
}

export function FavouritesTab() {
  return <QuestionListTab kind="favourites" />;
}
export function WrongBookTab() {
  return <QuestionListTab kind="wrong" />;
}
