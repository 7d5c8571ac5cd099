import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { controlClass, FieldFrame } from "../../ui/form/Field.tsx";
import { FormAlert, FormFooter } from "../../ui/FormFooter.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudKeys, crudUrl, fieldErrorsOf } from "../crud/api.ts";
import { useDirtyForm, useGuardedClose } from "../../ui/discardGuard.tsx";
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
  const schema = useMemo(() => z.object({ reason: z.string().trim().min(1, { error: () => t`Please give the reason (at most 200 characters)` }).max(200) }), [t]);
  const form = useForm({ defaultValues: { reason: "" }, resolver: zodResolver(schema) });
  const [formError, setFormError] = useState<string | null>(null);
  useDirtyForm(form.formState.isDirty);
  const cancel = useGuardedClose(onDone);
  const revoked = row.state === "revoked";
  const serial = String(row.serial);
  const name = String(row.member_name);
  const why = String(row.revoked_reason ?? "");
  const revoke = useMutation({
    mutationFn: ({ reason }: z.output<typeof schema>) =>
      request({ url: crudUrl("exam/certificate", "revoke"), method: "post", data: { id: row.id, reason } }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: crudKeys.all("exam/certificate") });
      onDone();
    },
    onError: (e) => {
      const refusal = serverRefusal(e);
      if (!refusal) return;
      const fields = fieldErrorsOf(refusal.data);
      if (fields?.reason) form.setError("reason", { type: "server", message: fields.reason });
      else setFormError(refusal.msg);
    },
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
  const error = form.formState.errors.reason?.message ?? null;
  return (
    <form
      noValidate
      className="space-y-4 text-sm"
      onSubmit={(e) => {
        setFormError(null);
        void form.handleSubmit((values) => revoke.mutate(values))(e);
      }}
    >
      <p>{t`Revoke certificate ${serial} of ${name}? Its public check will say it is revoked. This cannot be undone.`}</p>
      <FieldFrame label={t`Reason`} error={error}>
        {(control) => <textarea {...control} {...form.register("reason")} rows={3} maxLength={200} className={`${controlClass(error)} py-2`} />}
      </FieldFrame>
      <FormAlert text={formError} />
      <FormFooter busy={revoke.isPending} onCancel={cancel} submit={<Trans>Revoke</Trans>} />
    </form>
  );
}
