import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useId, useState } from "react";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { DataTable } from "../../ui/DataTable.tsx";
import { FormAlert } from "../../ui/FormFooter.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudUrl } from "../crud/api.ts";
import type { CrudRow } from "../crud/types.ts";
import { base64Of, save, type SheetFile } from "../exam/QuestionSheet.tsx";

/**
 * Members as spreadsheets (`/admin/user/user/template|import|export`): the import dialog
 * (template, file -> dry run counting the members to add, update and leave as they are, listing
 * every bad row -> confirm, all or nothing), the export dialog, and the row action that emails a
 * member a new invitation link (`invite`).
 */

interface ImportReport {
  add: number;
  update: number;
  unchanged: number;
  errorCount: number;
  errors: { line: number; message: string }[];
  preview: { line: number; username: string; nickname: string; action: "add" | "update" | "unchanged"; password: "set" | "kept" | "invite" }[];
  imported: number;
  invited?: number;
}

/** Most bytes of a file to import (the server checks too). */
const MAX_BYTES = 10 * 1024 * 1024;

export function MemberImportDialog({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const add = report?.add ?? 0;
  const update = report?.update ?? 0;
  const unchanged = report?.unchanged ?? 0;
  const errorCount = report?.errorCount ?? 0;
  const imported = report?.imported ?? 0;
  const invited = report?.invited ?? 0;
  const actionLabel = { add: t`Add`, update: t`Update`, unchanged: t`Unchanged` };
  const passwordLabel = { set: t`Set from the file`, kept: t`Kept`, invite: t`Invitation email` };

  async function template(format: "xlsx" | "csv") {
    const res = await request<SheetFile>({ url: crudUrl("user/user", "template"), method: "get", params: { format } });
    save(res.data);
  }

  async function send(confirm: boolean) {
    if (!file) return;
    setProblem(null);
    if (file.size > MAX_BYTES) {
      setProblem(t`The file is too large (at most 10 MB)`);
      return;
    }
    setBusy(true);
    try {
      const data = await base64Of(file);
      const res = await request<ImportReport>(
        { url: crudUrl("user/user", "import"), method: "post", data: { name: file.name, data, confirm }, timeout: 0 },
        { showCodeMessage: false, cancelDuplicateRequest: false, loading: false },
      );
      setReport(res.data);
    } catch (error) {
      const refusal = serverRefusal(error);
      if (refusal) {
        setProblem(refusal.msg);
        const data = refusal.data as Partial<ImportReport> | null;
        setReport(data && Array.isArray(data.errors) ? (data as ImportReport) : null);
      }
    } finally {
      setBusy(false);
    }
  }

  const changes = add + update;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span>
          <Trans>Template:</Trans>
        </span>
        <Button onClick={() => void template("xlsx")}>
          <Download aria-hidden className="size-4" />
          .xlsx
        </Button>
        <Button onClick={() => void template("csv")}>
          <Download aria-hidden className="size-4" />
          .csv
        </Button>
      </div>
      <p className="text-sm text-gray-600 dark:text-gray-300">
        <Trans>
          A row whose username is a member&apos;s updates that member (their password only when the row gives one); any other row adds a member, with a first password or an invitation email.
        </Trans>
      </p>
      <label htmlFor={fileId} className="block space-y-1">
        <span className="text-sm font-medium">
          <Trans>File (.xlsx or UTF-8 .csv, the first row is the header)</Trans>
        </span>
        <input
          id={fileId}
          type="file"
          accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setReport(null);
            setProblem(null);
          }}
          className="block w-full text-sm"
        />
      </label>
      <div className="flex flex-wrap gap-2">
        <Button disabled={!file || busy} onClick={() => void send(false)}>
          {busy && <Spinner className="size-4" />}
          <Trans>Check the file</Trans>
        </Button>
        {report && report.errorCount === 0 && changes > 0 && report.imported === 0 && (
          <Button variant="primary" disabled={busy} onClick={() => void send(true)}>
            <Trans>
              Import: add {add}, update {update}
            </Trans>
          </Button>
        )}
      </div>
      <FormAlert text={problem} />
      {report && (
        <section aria-live="polite" className="space-y-2 text-sm">
          <p data-testid="member-import-counts">
            <Trans>
              To add: {add}; to update: {update}; unchanged: {unchanged}; rows with problems: {errorCount}.
            </Trans>
          </p>
          {report.errorCount > 0 && (
            <>
              <p className="font-medium text-red-700 dark:text-red-300">
                <Trans>Nothing will be imported until every row is correct:</Trans>
              </p>
              <ul className="max-h-48 list-disc space-y-1 overflow-y-auto ps-5 text-red-700 dark:text-red-300" data-testid="import-errors">
                {report.errors.map((e) => (
                  <li key={`${e.line}-${e.message}`}>{e.message}</li>
                ))}
              </ul>
            </>
          )}
          {report.preview.length > 0 && (
            <div className="max-h-56 overflow-auto">
              <DataTable
                frame={false}
                data={report.preview}
                rowKey={(r) => r.line}
                columns={[
                  { id: "line", header: t`Row`, cell: (r) => r.line },
                  { id: "username", header: t`Username`, cell: (r) => r.username },
                  { id: "nickname", header: t`Nickname`, cell: (r) => r.nickname },
                  { id: "action", header: t`Change`, cell: (r) => actionLabel[r.action] },
                  { id: "password", header: t`Password`, cell: (r) => passwordLabel[r.password] },
                ]}
              />
            </div>
          )}
          {report.imported > 0 && (
            <div role="status" className="space-y-2">
              <p className="font-medium text-green-700 dark:text-green-300">
                <Trans>{imported} members imported; invitations sent: {invited}.</Trans>
              </p>
              <Button onClick={onDone}>
                <Trans>Close</Trans>
              </Button>
            </div>
          )}
        </section>
      )}
    </div>
  );
}

export function MemberExportDialog({ onDone }: { onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  async function run(format: "xlsx" | "csv") {
    setBusy(true);
    try {
      const res = await request<SheetFile>({ url: crudUrl("user/user", "export"), method: "get", params: { format }, timeout: 0 });
      save(res.data);
      onDone();
    } catch {
      // The request layer has said why.
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <Trans>Every member you manage, in the import&apos;s layout (passwords are never exported).</Trans>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" disabled={busy} onClick={() => void run("xlsx")}>
          <Download aria-hidden className="size-4" />
          <Trans>Export as .xlsx</Trans>
        </Button>
        <Button disabled={busy} onClick={() => void run("csv")}>
          <Download aria-hidden className="size-4" />
          <Trans>Export as .csv</Trans>
        </Button>
      </div>
    </div>
  );
}

/** Emails the member a new link to set their password (`POST invite {id}`); older links stop working. */
export function InviteDialog({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const sendIt = useMutation({
    mutationFn: () => request({ url: crudUrl("user/user", "invite"), method: "post", data: { id: row.id } }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: () => onDone(),
    onError: (e) => setError(serverRefusal(e)?.msg ?? t`The invitation could not be sent: try again`),
  });
  const name = String(row.nickname || row.username || row.id);
  const email = String(row.email ?? "");
  if (email === "") {
    return (
      <p className="text-sm">
        <Trans>{name} has no email: add one before sending an invitation.</Trans>
      </p>
    );
  }
  return (
    <div className="space-y-4 text-sm">
      <p>
        <Trans>
          Email {name} ({email}) a link to set their password? The link works once and expires; links sent before stop working.
        </Trans>
      </p>
      <FormAlert text={error} />
      <Button variant="primary" disabled={sendIt.isPending} onClick={() => sendIt.mutate()}>
        <Trans>Send invitation</Trans>
      </Button>
    </div>
  );
}
