import { useMemo, useState } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, CloudOff, FileText, Play, RotateCcw, Timer } from "lucide-react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import type { ExamQuestion } from "../../../shared/exam/types.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { attemptsInProgress, questionsOfBanks, saveBank, startMockAttempt, storedBank, storedBanks, useOfflineDb, useOfflineQuery, type AttemptRow, type MemberDb, type QuestionRow } from "../../offline/index.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { downloadBank, examQueries, flattenBanks } from "./api.ts";
import { drawQuestions, listCachedPapers, parsePaper, readCachedPaper, writeCachedPaper, type PaperDetail } from "./papers.ts";
import { ExamIntroDialog, type ExamIntroFigure } from "./ExamIntro.tsx";
import { LogInFirst } from "./LogInFirst.tsx";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { TitledSection } from "../../ui/TitledSection.tsx";

/** A paper made ready on this device: its questions drawn, nothing started yet (the introduction shows it). */
interface Prepared {
  detail: PaperDetail;
  questions: ExamQuestion[];
}

type PrepareOutcome =
  | { ok: true; prepared: Prepared }
  | { ok: false; reason: "no-paper" }
  | { ok: false; reason: "refused"; message: string }
  | { ok: false; reason: "missing-banks"; banks: number[] }
  | { ok: false; reason: "empty" };

function serverMessage(error: unknown): string | null {
  return serverRefusal(error)?.msg ?? null;
}

/** The paper from the server when online (cached for offline use), else the cached copy. */
async function loadPaper(paperId: number): Promise<PaperDetail | { refused: string } | null> {
  if (navigator.onLine) {
    try {
      const envelope = await request<unknown>(
        { url: "/api/exam/paper", method: "get", params: { id: paperId } },
        { showErrorMessage: false, showCodeMessage: false },
      );
      const detail = parsePaper(envelope.data);
      if (detail) {
        writeCachedPaper(detail);
        return detail;
      }
    } catch (error) {
      const refused = serverMessage(error);
      if (refused !== null) return { refused };
      // Network trouble: fall back to the copy on the device.
    }
  }
  return readCachedPaper(paperId);
}

function toQuestion(row: QuestionRow): ExamQuestion {
  const { bankId: _bankId, position: _position, ...question } = row;
  return question;
}

/** Makes sure the paper's banks are on the device (downloading changed ones when online). */
async function ensureBanks(db: MemberDb, bankIds: readonly number[], versions: ReadonlyMap<number, string>, lang: string): Promise<void> {
  if (!navigator.onLine) return;
  await Promise.all(
    bankIds.map(async (bankId) => {
      const stored = await storedBank(db, bankId);
      const known = versions.get(bankId);
      if (stored && known !== undefined && String(stored.version) === known) return;
      try {
        const data = await downloadBank(bankId);
        if (stored && String(stored.version) === data.bank.version) return;
        // The bank's version travels as text; BankRow declares a number (as PracticePage stores it).
        await saveBank(db, { id: data.bank.id, classifyId: data.bank.id, title: data.bank.title, version: data.bank.version, lang }, data.questions);
      } catch {
        // Keep an older copy if there is one; a missing bank is reported below.
      }
    }),
  );
}

/**
 * Everything before the attempt: the paper (fresh when online), its banks on the device and the
 * questions drawn. The attempt itself (and its clock) starts only from the introduction's Start.
 */
async function preparePaper(db: MemberDb, paperId: number, versions: ReadonlyMap<number, string>, lang: string): Promise<PrepareOutcome> {
  const loaded = await loadPaper(paperId);
  if (!loaded) return { ok: false, reason: "no-paper" };
  if ("refused" in loaded) return { ok: false, reason: "refused", message: loaded.refused };
  const detail = loaded;
  const bankIds = [...new Set([...detail.banks, ...detail.rows.flatMap((r) => (r.kind === "draw" ? [r.classifyId] : []))])];
  await ensureBanks(db, bankIds, versions, lang);

  const stored = await storedBanks(db, bankIds);
  const present = bankIds.filter((_, i) => stored[i] !== undefined);
  const missingBanks = bankIds.filter((_, i) => stored[i] === undefined);
  const rows = await questionsOfBanks(db, present);
  const byBank = new Map<number, ExamQuestion[]>(present.map((id) => [id, []]));
  for (const row of rows) byBank.get(row.bankId)?.push(toQuestion(row));

  const drawn = drawQuestions(detail.rows, byBank, Math.random);
  const missing = [...new Set([...missingBanks, ...drawn.missing])];
  if (missing.length > 0) return { ok: false, reason: "missing-banks", banks: missing };
  if (drawn.questions.length === 0) return { ok: false, reason: "empty" };
  return { ok: true, prepared: { detail, questions: drawn.questions } };
}

interface PaperListEntry {
  id: number;
  title: string;
  totalScore: number;
  passScore: number;
  duration: number;
  /** The banks its questions come from; absent in a catalogue cached by an older server. */
  banks?: number[];
}

/**
 * `/exam/examTab/mockTest`: the mock papers. "Start" draws a paper's questions on this device and
 * opens its introduction (duration, questions, points, pass score); the attempt starts only on its Start.
 */
export default function MockTestTab() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const online = useOnline();
  const db = useOfflineDb();
  const catalog = useQuery(examQueries.catalog());
  const inProgress = useOfflineQuery<AttemptRow[]>((d) => attemptsInProgress(d), [], undefined);
  const [busy, setBusy] = useState<number | null>(null);
  // `?paper=`: the paper linked from /exam/myTest, marked among the others.
  const [params] = useSearchParams();
  const linked = Number(params.get("paper"));
  // `?id=`: the bank whose tab this is: only the papers drawing on it (all of them from /exam/myTest).
  const bankId = Number(params.get("id")) || 0;
  const [outcome, setOutcome] = useState<{ paperId: number; result: Exclude<PrepareOutcome, { ok: true }> | { ok: false; reason: "error" } } | null>(null);
  // The introduction of the paper being started (its questions already drawn), and whether its Start is under way.
  const [intro, setIntro] = useState<Prepared | null>(null);
  const [starting, setStarting] = useState(false);

  // Offline without a loaded catalog: the papers cached on this device.
  const cachedPapers = useMemo(() => (catalog.data ? [] : listCachedPapers()), [catalog.data]);
  const allPapers: PaperListEntry[] = catalog.data?.papers ?? cachedPapers.map((d) => ({ ...d.paper, banks: d.banks }));
  const papers = bankId > 0 ? allPapers.filter((p) => !p.banks || p.banks.includes(bankId)) : allPapers;
  const banks = useMemo(() => flattenBanks(catalog.data?.classify ?? []), [catalog.data]);
  const versions = useMemo(() => new Map(banks.map(({ node }) => [node.id, node.version])), [banks]);
  const bankTitle = (id: number) => banks.find((b) => b.node.id === id)?.node.title ?? t`Bank ${id}`;

  if (!db) {
    return (
      <LogInFirst>
        <Trans>Please log in to take a mock exam.</Trans>
      </LogInFirst>
    );
  }
  if (catalog.isPending && papers.length === 0) return <Spinner className="mx-auto my-16 size-8" />;

  // "Start": the paper is made ready (loaded, banks downloaded, questions drawn) and introduced; nothing starts yet.
  const prepare = (paperId: number) => {
    setBusy(paperId);
    setOutcome(null);
    preparePaper(db, paperId, versions, i18n.locale).then(
      (result) => {
        setBusy(null);
        if (result.ok) setIntro(result.prepared);
        else setOutcome({ paperId, result });
      },
      () => {
        setBusy(null);
        setOutcome({ paperId, result: { ok: false, reason: "error" } });
      },
    );
  };

  // The introduction's Start: the attempt begins (its time limit counts from now).
  const start = (prepared: Prepared) => {
    const { paper } = prepared.detail;
    setStarting(true);
    startMockAttempt(db, { paperId: paper.id, questions: prepared.questions, durationSec: paper.duration }).then(
      (attempt) => {
        setStarting(false);
        setIntro(null);
        void navigate(`/exam/my_test_detail?attempt=${encodeURIComponent(attempt.attemptId)}`);
      },
      () => {
        setStarting(false);
        setIntro(null);
        setOutcome({ paperId: paper.id, result: { ok: false, reason: "error" } });
      },
    );
  };

  const introFigures = (prepared: Prepared): ExamIntroFigure[] => {
    const { paper } = prepared.detail;
    const minutes = Math.round(paper.duration / 60);
    return [
      { label: t`Duration`, value: paper.duration > 0 ? t`${plural(minutes, { one: "# minute", other: "# minutes" })}` : t`No time limit` },
      { label: t`Questions`, value: String(prepared.questions.length) },
      { label: t`Total points`, value: String(paper.totalScore) },
      { label: t`Pass score`, value: String(paper.passScore) },
    ];
  };

  const problem = (result: NonNullable<typeof outcome>["result"]): string => {
    switch (result.reason) {
      case "no-paper":
        return t`This paper is not on this device yet. Open it once while online to sit it offline.`;
      case "refused":
        return result.message;
      case "missing-banks": {
        const names = result.banks.map(bankTitle).join(", ");
        return online
          ? t`These question banks could not be downloaded: ${names}. Try again later.`
          : t`These question banks are not on this device: ${names}. Connect once to download them.`;
      }
      case "empty":
        return t`No questions could be drawn for this paper.`;
      case "error":
        return t`The mock exam could not be started. Try again.`;
    }
  };

  return (
    <TitledSection id="mock-papers-title" title={<Trans>Mock exams</Trans>}>
      {catalog.isError && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <CloudOff aria-hidden className="size-4 shrink-0" />
          {papers.length > 0 ? t`Showing the papers saved on this device.` : t`The paper list could not be loaded. Papers opened once online can be sat offline.`}
        </p>
      )}
      {papers.length === 0 ? (
        !catalog.isError && <p className="text-slate-600 dark:text-slate-300">{t`No mock exams yet.`}</p>
      ) : (
        <ul className="space-y-3">
          {papers.map((paper) => {
            const { id, title, totalScore, passScore, duration } = paper;
            const minutes = Math.round(duration / 60);
            const running = inProgress?.filter((a) => a.paperId === id).sort((a, b) => b.startedAt - a.startedAt)[0];
            const failed = outcome?.paperId === id ? outcome.result : null;
            return (
              <li
                key={id}
                id={`paper-${id}`}
                aria-current={linked === id ? "true" : undefined}
                className={`space-y-3 rounded-xl border bg-white p-4 shadow-sm dark:bg-slate-900 ${linked === id ? "border-primary" : "border-slate-200 dark:border-slate-700"}`}
              >
                <h3 className="flex items-center gap-2 font-medium">
                  <FileText aria-hidden className="size-5 shrink-0 text-primary" />
                  {title}
                </h3>
                <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600 dark:text-slate-300">
                  <span>{t`Total ${totalScore}, pass ${passScore}`}</span>
                  <span className="inline-flex items-center gap-1">
                    <Timer aria-hidden className="size-4" />
                    {duration > 0 ? t`${minutes} min` : t`No time limit`}
                  </span>
                </p>
                <div className="flex flex-wrap gap-2">
                  {running && (
                    <Link
                      to={`/exam/my_test_detail?attempt=${encodeURIComponent(running.attemptId)}`}
                      className={buttonClass("primary")}
                    >
                      <RotateCcw aria-hidden className="size-4" />
                      <Trans>Continue</Trans>
                    </Link>
                  )}
                  <Button variant={running ? "secondary" : "primary"} onClick={() => prepare(id)} disabled={busy !== null || starting} aria-busy={busy === id}>
                    {busy === id ? <Spinner className="size-4" /> : <Play aria-hidden className="size-4" />}
                    {running ? t`Start again` : t`Start`}
                  </Button>
                </div>
                {failed && (
                  <p role="alert" className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-100">
                    <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
                    {problem(failed)}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {intro && (
        <ExamIntroDialog
          open
          onOpenChange={(open) => !open && setIntro(null)}
          title={intro.detail.paper.title}
          figures={introFigures(intro)}
          busy={starting}
          onStart={() => start(intro)}
        />
      )}
    </TitledSection>
  );
}
