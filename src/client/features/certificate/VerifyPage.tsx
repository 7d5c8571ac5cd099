import { Trans, useLingui } from "@lingui/react/macro";
import { BadgeCheck, CircleX } from "lucide-react";
import { useEffect, useState } from "react";
import { useParams } from "react-router-dom";
import type { CertificateVerification } from "../../../shared/certificate.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { Spinner } from "../../ui/Spinner.tsx";

type State = { kind: "loading" } | { kind: "refused"; message: string } | ({ kind: "found" } & CertificateVerification);

/**
 * `/verify/:serial` (public, the QR code of a certificate's PDF): whether the certificate is
 * valid, with its name, title and date and nothing else about the member. Revoked: said plainly,
 * with the day.
 */
export default function VerifyPage() {
  const { t } = useLingui();
  const serial = useParams().serial ?? "";
  const [state, setState] = useState<State>({ kind: "loading" });
  const revokedOn = state.kind === "found" ? (state.revokedOn ?? "") : "";

  useEffect(() => {
    let live = true;
    request<CertificateVerification>({ url: `/api/certificate/verify/${encodeURIComponent(serial)}`, method: "get" }, { showCodeMessage: false, showErrorMessage: false }).then(
      (res) => live && setState({ kind: "found", ...res.data }),
      (e: unknown) => live && setState({ kind: "refused", message: serverRefusal(e)?.msg ?? t`The certificate could not be checked: try again` }),
    );
    return () => {
      live = false;
    };
  }, [serial, t]);

  return (
    <section className="mx-auto max-w-md space-y-4 px-4 py-10" aria-live="polite">
      <h1 className="text-xl font-semibold">
        <Trans>Certificate check</Trans>
      </h1>
      <p className="break-all text-sm text-gray-600 dark:text-gray-300">
        <Trans>Certificate number: {serial}</Trans>
      </p>
      {state.kind === "loading" && <Spinner className="size-6" />}
      {state.kind === "refused" && (
        <p role="alert" className="flex items-center gap-2 rounded-md border border-red-300 p-4 text-red-700 dark:border-red-800 dark:text-red-300">
          <CircleX aria-hidden className="size-6 shrink-0" />
          {state.message}
        </p>
      )}
      {state.kind === "found" && (
        <div className="space-y-4 rounded-lg border p-5 dark:border-gray-700">
          {state.valid ? (
            <p className="flex items-center gap-2 text-lg font-semibold text-green-700 dark:text-green-400" data-testid="certificate-state">
              <BadgeCheck aria-hidden className="size-7 shrink-0" />
              <Trans>This certificate is valid</Trans>
            </p>
          ) : (
            <p className="flex items-center gap-2 text-lg font-semibold text-red-700 dark:text-red-400" data-testid="certificate-state">
              <CircleX aria-hidden className="size-7 shrink-0" />
              <Trans>This certificate was revoked on {revokedOn}</Trans>
            </p>
          )}
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
            <dt className="text-gray-600 dark:text-gray-300">
              <Trans>Certificate holder</Trans>
            </dt>
            <dd className="font-medium">{state.name}</dd>
            <dt className="text-gray-600 dark:text-gray-300">
              <Trans>Certificate</Trans>
            </dt>
            <dd className="font-medium">{state.title}</dd>
            <dt className="text-gray-600 dark:text-gray-300">
              <Trans>Issued on</Trans>
            </dt>
            <dd className="font-medium">{state.date}</dd>
          </dl>
        </div>
      )}
    </section>
  );
}
