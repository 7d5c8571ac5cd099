import { Trans, useLingui } from "@lingui/react/macro";
import { Download } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { downloadFile } from "../../api/download.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { DataTable, type DataColumn } from "../../ui/DataTable.tsx";
import { FormAlert } from "../../ui/FormFooter.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudUrl } from "./api.ts";

/**
 * A resource as spreadsheets (`/admin/<rule>/template|import|export`), the part every such
 * resource shares: the import dialog (template, file -> dry run listing what would change and
 * every bad row -> confirm, all or nothing) and the export dialog's buttons. The file to import
 * and the templates travel as base64 in JSON; an export downloads as the list exports do.
 */

export interface SheetFile {
  name: string;
  type: string;
  data: string;
}

type SheetFormat = "xlsx" | "csv";

/** What an import answers, dry run or not: the bad rows, the rows it would write, how many it wrote. */
export interface SheetReport<P extends { line: number }> {
  errorCount: number;
  errors: { line: number; message: string }[];
  preview: P[];
  imported: number;
}

/** Most bytes of a file to import (the server checks too). */
const MAX_BYTES = 10 * 1024 * 1024;

/** Saves a file the server sent. */
export function save(file: SheetFile) {
  const bytes = Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: file.type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = file.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

interface SheetImportProps<P extends { line: number }, R extends SheetReport<P>> {
  /** The resource's rule (`exam/question`). */
  rule: string;
  /** What else the import sends besides the file (the bank); `null` while it cannot send yet. */
  extra: Record<string, unknown> | null;
  /** Above the template buttons (a bank select), given the means to drop a report that no longer applies. */
  before?: (forget: () => void) => ReactNode;
  /** Under the template buttons: what the import does with a row. */
  note?: ReactNode;
  /** The confirm button's words for a clean dry run, or `null` when it would change nothing. */
  confirmLabel: (report: R) => ReactNode | null;
  /** The report's counts. */
  counts: (report: R) => ReactNode;
  /** The preview table's columns. */
  columns: DataColumn<P>[];
  /** Once imported: what was done (in a `status`). */
  done: (report: R) => ReactNode;
  /** Called once an import has been confirmed and written. */
  onImported?: () => void;
}

/** The import dialog: template, file, dry run, every bad row, confirm. */
export function SheetImport<P extends { line: number }, R extends SheetReport<P>>(props: SheetImportProps<P, R>) {
  const { rule, extra } = props;
  const { t } = useLingui();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<R | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function template(format: SheetFormat) {
    const res = await request<SheetFile>({ url: crudUrl(rule, "template"), method: "get", params: { format } });
    save(res.data);
  }

  async function send(confirm: boolean) {
    if (!file || extra === null) return;
    setProblem(null);
    if (file.size > MAX_BYTES) {
      setProblem(t`The file is too large (at most 10 MB)`);
      return;
    }
    setBusy(true);
    try {
      const data = await base64Of(file);
      const res = await request<R>(
        { url: crudUrl(rule, "import"), method: "post", data: { ...extra, name: file.name, data, confirm }, timeout: 0 },
        { showCodeMessage: false, cancelDuplicateRequest: false, loading: false },
      );
      setReport(res.data);
      if (confirm) props.onImported?.();
    } catch (error) {
      const refusal = serverRefusal(error);
      if (refusal) {
        setProblem(refusal.msg);
        const data = refusal.data as Partial<R> | null;
        setReport(data && Array.isArray(data.errors) ? (data as R) : null);
      }
    } finally {
      setBusy(false);
    }
  }

  const confirmLabel = report && report.errorCount === 0 && report.imported === 0 ? props.confirmLabel(report) : null;
  return (
    <div className="space-y-4">
      {props.before?.(() => setReport(null))}
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span>
          <Trans>Template:</Trans>
        </span>
        {(["xlsx", "csv"] as const).map((format) => (
          <Button key={format} onClick={() => void template(format)}>
            <Download aria-hidden className="size-4" />.{format}
          </Button>
        ))}
      </div>
      {props.note && <p className="text-sm text-gray-600 dark:text-gray-300">{props.note}</p>}
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
        <Button disabled={!file || extra === null || busy} onClick={() => void send(false)}>
          {busy && <Spinner className="size-4" />}
          <Trans>Check the file</Trans>
        </Button>
        {confirmLabel !== null && (
          <Button variant="primary" disabled={busy} onClick={() => void send(true)}>
            {confirmLabel}
          </Button>
        )}
      </div>
      <FormAlert text={problem} />
      {report && (
        <section aria-live="polite" className="space-y-2 text-sm">
          {props.counts(report)}
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
              <DataTable frame={false} data={report.preview} rowKey={(r) => r.line} columns={props.columns} />
            </div>
          )}
          {report.imported > 0 && props.done(report)}
        </section>
      )}
    </div>
  );
}

/**
 * The export dialog's body: `before` (a bank select), then one button a format; `params` (`null`
 * while it cannot export yet) go with the format; the file downloads as a list export does, then `onDone`.
 */
export function SheetExport({ rule, params, before, onDone }: { rule: string; params: Record<string, string | number> | null; before?: ReactNode; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  async function run(format: SheetFormat) {
    if (params === null) return;
    setBusy(true);
    try {
      await downloadFile(crudUrl(rule, "export"), { ...params, format }, rule, format, crudUrl(rule, "index"));
      onDone();
    } catch {
      // The refusal's message has been shown.
    } finally {
      setBusy(false);
    }
  }
  const disabled = params === null || busy;
  return (
    <div className="space-y-4">
      {before}
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" disabled={disabled} onClick={() => void run("xlsx")}>
          <Download aria-hidden className="size-4" />
          <Trans>Export as .xlsx</Trans>
        </Button>
        <Button disabled={disabled} onClick={() => void run("csv")}>
          <Download aria-hidden className="size-4" />
          <Trans>Export as .csv</Trans>
        </Button>
      </div>
    </div>
  );
}
