import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useId, useState } from "react";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { FieldFrame } from "../../ui/form/Field.tsx";
import { Select } from "../../ui/Select.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudUrl } from "../crud/api.ts";
import type { CrudRow, ListData } from "../crud/types.ts";
import { QUESTION_TYPE_OPTIONS, bankTitle } from "./options.ts";
import { FormAlert } from "../../ui/FormFooter.tsx";
import { DataTable } from "../../ui/DataTable.tsx";

/**
 * Questions as spreadsheets (`/admin/exam/question/template|import|export`): the import dialog
 * (bank, template, file -> dry run listing the rows to add and every bad row -> confirm, all or
 * nothing) and the export dialog. Files travel as base64 in JSON.
 */

export interface SheetFile {
  name: string;
  type: string;
  data: string;
}

interface ImportReport {
  count: number;
  errorCount: number;
  errors: { line: number; message: string }[];
  preview: { line: number; type: string; stem: string; score: number }[];
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

/** The banks (every row of the tree, flat, titled in the UI language). */
function useBanks() {
  const { i18n } = useLingui();
  const list = useQuery({
    queryKey: ["crud", "exam/classify", "select", "all"] as const,
    queryFn: async () => (await request<ListData>({ url: crudUrl("exam/classify", "index"), method: "get", params: { select: 1, page: 1, limit: 100 } })).data.list,
  });
  return (list.data ?? []).map((row: CrudRow) => ({ id: row.id, title: bankTitle(row, i18n.locale) }));
}

function BankSelect({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const { t } = useLingui();
  const banks = useBanks();
  return (
    <FieldFrame label={t`Bank`}>
      {(control) => (
        <Select
          control={control}
          value={value === null ? "" : String(value)}
          onChange={(v) => onChange(v === "" ? null : Number(v))}
          emptyLabel={t`Please select`}
          options={banks.map((b) => ({ value: String(b.id), label: b.title }))}
        />
      )}
    </FieldFrame>
  );
}

export function ImportDialog({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useLingui();
  const typeLabel = (type: string) => {
    const option = QUESTION_TYPE_OPTIONS.find((o) => o.value === type);
    return option ? i18n._(option.label) : type;
  };
  const fileId = useId();
  const [bank, setBank] = useState<number | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const count = report?.count ?? 0;
  const errorCount = report?.errorCount ?? 0;
  const imported = report?.imported ?? 0;

  async function template(format: "xlsx" | "csv") {
    const res = await request<SheetFile>({ url: crudUrl("exam/question", "template"), method: "get", params: { format } });
    save(res.data);
  }

  async function send(confirm: boolean) {
    if (!file || bank === null) return;
    setProblem(null);
    if (file.size > MAX_BYTES) {
      setProblem(t`The file is too large (at most 10 MB)`);
      return;
    }
    setBusy(true);
    try {
      const data = await base64Of(file);
      const res = await request<ImportReport>(
        { url: crudUrl("exam/question", "import"), method: "post", data: { classify_id: bank, name: file.name, data, confirm }, timeout: 0 },
        { showCodeMessage: false, cancelDuplicateRequest: false, loading: false },
      );
      setReport(res.data);
      if (confirm) onDone();
    } catch (error) {
      const refusal = serverRefusal(error);
      if (refusal) {
        setProblem(refusal.msg);
        const data = refusal.data as Partial<ImportReport> | null;
        if (data && Array.isArray(data.errors)) setReport(data as ImportReport);
        else setReport(null);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      <BankSelect
        value={bank}
        onChange={(id) => {
          setBank(id);
          setReport(null);
        }}
      />
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
        <Button disabled={!file || bank === null || busy} onClick={() => void send(false)}>
          {busy && <Spinner className="size-4" />}
          <Trans>Check the file</Trans>
        </Button>
        {report && report.errorCount === 0 && report.count > 0 && report.imported === 0 && (
          <Button variant="primary" disabled={busy} onClick={() => void send(true)}>
            <Trans>Import {count} questions</Trans>
          </Button>
        )}
      </div>
      <FormAlert text={problem} />
      {report && (
        <section aria-live="polite" className="space-y-2 text-sm">
          <p>
            <Trans>
              {count} questions to add, {errorCount} rows with problems.
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
                  { id: "type", header: t`Kind`, cell: (r) => typeLabel(r.type) },
                  { id: "stem", header: t`Question`, className: "line-clamp-1", cell: (r) => r.stem },
                ]}
              />
            </div>
          )}
          {report.imported > 0 && (
            <p role="status" className="font-medium text-green-700 dark:text-green-300">
              <Trans>{imported} questions imported.</Trans>
            </p>
          )}
        </section>
      )}
    </div>
  );
}

export function ExportDialog({ onDone }: { onDone: () => void }) {
  const [bank, setBank] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  async function run(format: "xlsx" | "csv") {
    if (bank === null) return;
    setBusy(true);
    try {
      const res = await request<SheetFile>({ url: crudUrl("exam/question", "export"), method: "get", params: { classify_id: bank, format }, timeout: 0 });
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
      <BankSelect value={bank} onChange={setBank} />
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" disabled={bank === null || busy} onClick={() => void run("xlsx")}>
          <Download aria-hidden className="size-4" />
          <Trans>Export as .xlsx</Trans>
        </Button>
        <Button disabled={bank === null || busy} onClick={() => void run("csv")}>
          <Download aria-hidden className="size-4" />
          <Trans>Export as .csv</Trans>
        </Button>
      </div>
    </div>
  );
}

/** A question's bank in the list, in the UI language. */
export function BankName({ row }: { row: CrudRow }) {
  const { i18n } = useLingui();
  return <>{bankTitle({ id: row.classify_id as number, title: row.classify_title, title_en: row.classify_title_en }, i18n.locale)}</>;
}
