import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Award, Download, FileCheck2 } from "lucide-react";
import type { MemberCertificate } from "../../../shared/certificate.ts";
import { verifyPath } from "../../../shared/certificate.ts";
import { formatTime } from "../../../shared/time.ts";
import { request } from "../../api/index.ts";
import { saveCertificate, storedCertificatePdf, useOfflineDb, useStoredCertificates, type MemberDb } from "../../offline/index.ts";
import { Button } from "../../ui/Button.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { PageTitle } from "../../ui/PageTitle.tsx";

const card = "rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900";

/** Opens PDF bytes the browser's way (a download named after the serial). */
function openPdf(serial: string, bytes: ArrayBuffer): void {
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/pdf" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = `certificate-${serial}.pdf`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** Downloads a certificate's PDF from the server and keeps it on this device. */
async function fetchCertificate(db: MemberDb | null, c: MemberCertificate): Promise<ArrayBuffer> {
  const res = (await request({ url: "/api/certificate/download", method: "get", params: { serial: c.serial }, responseType: "arraybuffer" }, { reductDataFormat: false })) as unknown as {
    data: ArrayBuffer;
  };
  if (db) await saveCertificate(db, { serial: c.serial, title: c.title, kind: c.kind, issuedAt: c.issuedAt, score: c.score, pdf: res.data, savedAt: Date.now() });
  return res.data;
}

type Row = MemberCertificate & { saved: boolean };

function ScoreText({ score }: { score: number }) {
  return (
    <>
      {" · "}
      <Trans>Score: {score}</Trans>
    </>
  );
}

/**
 * Member center "My certificates" (component `exam/certificate`): the member's certificates from
 * passed exams and completed courses, each downloadable as a PDF. A downloaded one is kept on the
 * device (offline/repository/certificates.ts) and opens again with no network; offline, the list
 * is the device's.
 */
export default function MyCertificatesPage() {
  const { t } = useLingui();
  const db = useOfflineDb();
  const stored = useStoredCertificates(db ?? undefined);
  const list = useQuery({
    queryKey: ["certificate", "list"],
    queryFn: async ({ signal }) => (await request<{ list: MemberCertificate[] }>({ url: "/api/certificate/list", method: "get", signal }, { showErrorMessage: false })).data.list,
  });
  const savedSerials = new Set((stored ?? []).map((s) => s.serial));
  const rows: Row[] = list.data
    ? list.data.map((c) => ({ ...c, saved: savedSerials.has(c.serial) }))
    : (stored ?? []).map((s) => ({ serial: s.serial, title: s.title, kind: s.kind, issuedAt: s.issuedAt, score: s.score, revoked: false, saved: true }));
  const open = useMutation({
    mutationFn: async (c: Row) => {
      const kept = c.saved && db ? await storedCertificatePdf(db, c.serial) : undefined;
      openPdf(c.serial, kept ?? (await fetchCertificate(db, c)));
    },
  });

  return (
    <div className="space-y-6">
      <PageTitle icon={Award}>
        <Trans>My certificates</Trans>
      </PageTitle>
      {list.isPending && stored === undefined ? (
        <Spinner className="mx-auto my-8 size-8" />
      ) : rows.length === 0 ? (
        <p className={`${card} text-center text-slate-600 dark:text-slate-300`}>
          {list.isError ? t`The certificates could not be loaded: you may be offline.` : t`You have no certificate yet. Pass an exam or complete a course that gives one.`}
        </p>
      ) : (
        <ul className="space-y-3">
          {rows.map((c) => (
            <li key={c.serial} className={`${card} flex flex-wrap items-center justify-between gap-3`} data-testid="certificate-row">
              <div className="min-w-0 space-y-1">
                <p className="font-medium">{c.title}</p>
                <p className="text-sm text-slate-600 dark:text-slate-300">
                  {c.kind === "course" ? t`Course completed` : t`Exam passed`} · {formatTime(c.issuedAt, "YYYY-MM-DD")}
                  {c.score !== null ? <ScoreText score={c.score} /> : null}
                </p>
                <p className="break-all text-xs text-slate-500 dark:text-slate-400">
                  <Trans>Certificate number:</Trans>{" "}
                  <a href={verifyPath(c.serial)} className="underline-offset-2 hover:underline">
                    {c.serial}
                  </a>
                </p>
                {c.revoked && <p className="text-sm font-medium text-red-700 dark:text-red-400">{t`Revoked`}</p>}
                {c.saved && !c.revoked && (
                  <p className="flex items-center gap-1 text-xs text-green-700 dark:text-green-400">
                    <FileCheck2 aria-hidden className="size-4" />
                    <Trans>Saved on this device</Trans>
                  </p>
                )}
              </div>
              {!c.revoked && (
                <Button onClick={() => open.mutate(c)} disabled={open.isPending} className="min-h-11">
                  {open.isPending && open.variables?.serial === c.serial ? <Spinner className="size-4" /> : <Download aria-hidden className="size-4" />}
                  {c.saved ? <Trans>Open PDF</Trans> : <Trans>Download PDF</Trans>}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
