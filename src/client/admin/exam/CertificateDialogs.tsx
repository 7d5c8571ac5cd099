import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { useState } from "react";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { controlClass, FieldFrame } from "../../ui/form/Field.tsx";
import { FormAlert, FormFooter } from "../../ui/FormFooter.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudKeys, crudUrl } from "../crud/api.ts";
import type { CrudRow, CustomFieldProps } from "../crud/types.ts";

/** Fetches a PDF of the back office (with the admin's token) and opens it in a new tab, or downloads it. */
async function openAdminPdf(action: string, path: string, params: Record<string, unknown>, download: string | null): Promise<void> {
  const res = (await request({ url: crudUrl(path, action), method: "get", params, responseType: "blob" }, { reductDataFormat: false })) as unknown as { data: Blob };
  const url = URL.createObjectURL(new Blob([res.data], { type: "application/pdf" }));
  const a = document.createElement("a");
  a.href = url;
  if (download) a.download = download;
  else a.target = "_blank";
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The template form's "Preview": the form's current values (saved or not) rendered as the PDF a
 * member would get, with sample values (`GET /admin/exam/certificateTemplate/preview`).
 */
export function CertificatePreview({ values }: CustomFieldProps) {
  const preview = useMutation({
    mutationFn: () =>
      openAdminPdf("preview", "exam/certificateTemplate", {
        title: values.title ?? "",
        wording: values.wording ?? "",
        signature: values.signature ?? "",
        text_color: values.text_color ?? "",
        accent_color: values.accent_color ?? "",
      }, null),
  });
  return (
    <Button type="button" onClick={() => preview.mutate()} disabled={preview.isPending}>
      {preview.isPending ? <Spinner className="size-4" /> : <Eye aria-hidden className="size-4" />}
      <Trans>Preview the PDF</Trans>
    </Button>
  );
}

/** Downloads an issued certificate's PDF (`GET /admin/exam/certificate/download?id=`). */
export function CertificateDownload({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const serial = String(row.serial);
  const name = String(row.member_name);
  const title = String(row.title);
  const get = useMutation({
    mutationFn: () => openAdminPdf("download", "exam/certificate", { id: row.id }, `certificate-${serial}.pdf`),
    onSuccess: onDone,
    onError: (e) => setError(serverRefusal(e)?.msg ?? t`The PDF could not be downloaded`),
  });
  return (
    <div className="space-y-4 text-sm">
      <p>{t`Certificate ${serial} of ${name}: ${title}`}</p>
      <FormAlert text={error} />
      <div className="flex justify-end gap-2">
        <Button onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button variant="primary" onClick={() => get.mutate()} disabled={get.isPending}>
          <Trans>Download PDF</Trans>
        </Button>
      </div>
    </div>
  );
}

/** Revokes a certificate (`POST /admin/exam/certificate/revoke`): a reason is required; the verification page then says revoked. */
export function CertificateRevoke({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const client = useQueryClient();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const revoked = row.state === "revoked";
  const serial = String(row.serial);
  const name = String(row.member_name);
  const why = String(row.revoked_reason ?? "");
  const revoke = useMutation({
    mutationFn: () => request({ url: crudUrl("exam/certificate", "revoke"), method: "post", data: { id: row.id, reason: reason.trim() } }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: crudKeys.all("exam/certificate") });
      onDone();
    },
    onError: (e) => setError(serverRefusal(e)?.msg ?? null),
  });
  if (revoked) {
    return (
      <div className="space-y-4 text-sm">
        <p>{t`This certificate is already revoked: ${why}`}</p>
        <div className="flex justify-end">
          <Button onClick={onDone}>
            <Trans>Close</Trans>
          </Button>
        </div>
      </div>
    );
  }
  return (
    <form
      noValidate
      className="space-y-4 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        if (!reason.trim()) return setError(t`Please give the reason (at most 200 characters)`);
        setError(null);
        revoke.mutate();
      }}
    >
      <p>{t`Revoke certificate ${serial} of ${name}? Its public check will say it is revoked. This cannot be undone.`}</p>
      <FieldFrame label={t`Reason`} error={error}>
        {(control) => <textarea {...control} value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={200} className={`${controlClass(error)} py-2`} />}
      </FieldFrame>
      <FormAlert text={null} />
      <FormFooter busy={revoke.isPending} onCancel={onDone} submit={<Trans>Revoke</Trans>} />
    </form>
  );
}
