import { useEffect, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, CloudDownload, HardDrive } from "lucide-react";
import { Link, useSearchParams } from "react-router-dom";
import { useBank, useBankAnswers, useProgress } from "../../offline/index.ts";
import { useOfflineDb } from "../../offline/index.ts";
import { saveBank } from "../../offline/index.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { downloadBank, examQueries, flattenBanks } from "./api.ts";
import { Button, buttonClass } from "../../ui/Button.tsx";

/**
 * `/exam/detail?id=` and its sequential-practice tab: a bank's progress on this device, whether
 * it is saved for offline use, and where to continue.
 */
export default function BankOverview() {
  const { t, i18n } = useLingui();
  const lang = i18n.locale;
  const [params] = useSearchParams();
  const bankId = Number(params.get("id"));
  const db = useOfflineDb() ?? undefined;
  const online = useOnline();
  const catalog = useQuery({ ...examQueries.catalog(), enabled: online });
  const bank = useBank(db, bankId);
  const progress = useProgress(db, bankId);
  const answers = useBankAnswers(db, bankId);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const node = catalog.data ? flattenBanks(catalog.data.classify).find((b) => b.node.id === bankId)?.node : undefined;
  const stale = node && bank && String(bank.version) !== node.version;

  useEffect(() => {
    // Keep the copy on the device current while online.
    if (!db || !stale) return;
    let live = true;
    downloadBank(bankId).then(
      (data) => live && void saveBank(db, { id: data.bank.id, classifyId: data.bank.id, title: data.bank.title, version: data.bank.version, lang }, data.questions),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [db, bankId, stale, lang]);

  async function save() {
    if (!db) return;
    setSaving(true);
    setFailed(false);
    try {
      const data = await downloadBank(bankId);
      await saveBank(db, { id: data.bank.id, classifyId: data.bank.id, title: data.bank.title, version: data.bank.version, lang }, data.questions);
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  }

  if (!Number.isInteger(bankId) || bankId <= 0) {
    return (
      <p className="py-8 text-center">
        <Link to="/exam/myTest" className="text-primary underline">
          <Trans>Choose a question bank</Trans>
        </Link>
      </p>
    );
  }
  if (!db) return <p className="py-8 text-center">{t`Please log in to practise.`}</p>;
  if (bank === undefined || answers === undefined || progress === undefined) return <Spinner className="mx-auto my-12 size-8" />;

  const total = bank?.questionCount ?? node?.questionCount ?? 0;
  const answered = answers.size;
  const wrong = [...answers.values()].filter((a) => a.correct === false).length;
  const next = Math.min((progress?.position ?? 0) + 1, Math.max(total, 1));

  return (
    <section className="space-y-4">
      {/* The page's h1 (ExamDetailLayout) names the bank. */}
      <h2 className="text-lg font-semibold">{t`Your practice`}</h2>
      <dl className="grid grid-cols-3 gap-3 text-center">
        <div className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
          <dt className="text-sm text-slate-600 dark:text-slate-300">{t`Questions`}</dt>
          <dd className="text-2xl font-semibold">{total}</dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
          <dt className="text-sm text-slate-600 dark:text-slate-300">{t`Answered here`}</dt>
          <dd className="text-2xl font-semibold">{answered}</dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
          <dt className="text-sm text-slate-600 dark:text-slate-300">{t`Answered wrong`}</dt>
          <dd className="text-2xl font-semibold">{wrong}</dd>
        </div>
      </dl>
      <p className="flex items-center gap-2 text-sm" role="status">
        {bank ? (
          <>
            <HardDrive aria-hidden className="size-4 text-emerald-600" />
            {t`Saved on this device: you can practise offline.`}
          </>
        ) : (
          <>
            <CloudDownload aria-hidden className="size-4 text-slate-500" />
            {t`Not saved on this device yet.`}
          </>
        )}
      </p>
      {failed && <p className="text-sm text-red-700 dark:text-red-400">{t`The bank could not be downloaded. Try again when online.`}</p>}
      <div className="flex flex-wrap gap-3">
        <Link to={`/exam/myPractice?bank=${bankId}`} className={buttonClass("primary")}>
          <CheckCircle2 aria-hidden className="size-4" />
          {progress?.position ? t`Continue at question ${next}` : t`Start practising`}
        </Link>
        {!bank && (
          <Button disabled={!online || saving} onClick={() => void save()}>
            <CloudDownload aria-hidden className="size-4" />
            <Trans>Save for offline</Trans>
          </Button>
        )}
      </div>
    </section>
  );
}
