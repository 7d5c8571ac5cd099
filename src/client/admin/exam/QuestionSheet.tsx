import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { request } from "../../api/index.ts";
import { FieldFrame } from "../../ui/form/Field.tsx";
import { Select } from "../../ui/Select.tsx";
import { crudUrl } from "../crud/api.ts";
import { SheetExport, SheetImport, type SheetReport } from "../crud/SheetDialogs.tsx";
import type { CrudRow, ListData } from "../crud/types.ts";
import { QUESTION_TYPE_OPTIONS, bankTitle } from "./options.ts";

/**
 * Questions as spreadsheets (`/admin/exam/question/template|import|export`): the import dialog
 * (bank, template, file -> dry run listing the rows to add and every bad row -> confirm, all or
 * nothing) and the export dialog, on the shared sheet dialogs.
 */

interface ImportRow {
  line: number;
  type: string;
  stem: string;
  score: number;
}

interface ImportReport extends SheetReport<ImportRow> {
  count: number;
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
  const [bank, setBank] = useState<number | null>(null);
  return (
    <SheetImport<ImportRow, ImportReport>
      rule="exam/question"
      extra={bank === null ? null : { classify_id: bank }}
      before={(forget) => (
        <BankSelect
          value={bank}
          onChange={(id) => {
            setBank(id);
            forget();
          }}
        />
      )}
      confirmLabel={({ count }) => (count > 0 ? <Trans>Import {count} questions</Trans> : null)}
      counts={({ count, errorCount }) => (
        <p>
          <Trans>
            {count} questions to add, {errorCount} rows with problems.
          </Trans>
        </p>
      )}
      columns={[
        { id: "line", header: t`Row`, cell: (r) => r.line },
        { id: "type", header: t`Kind`, cell: (r) => typeLabel(r.type) },
        { id: "stem", header: t`Question`, className: "line-clamp-1", cell: (r) => r.stem },
      ]}
      done={({ imported }) => (
        <p role="status" className="font-medium text-green-700 dark:text-green-300">
          <Trans>{imported} questions imported.</Trans>
        </p>
      )}
      onImported={onDone}
    />
  );
}

export function ExportDialog({ onDone }: { onDone: () => void }) {
  const [bank, setBank] = useState<number | null>(null);
  return <SheetExport rule="exam/question" params={bank === null ? null : { classify_id: bank }} before={<BankSelect value={bank} onChange={setBank} />} onDone={onDone} />;
}

/** A question's bank in the list, in the UI language. */
export function BankName({ row }: { row: CrudRow }) {
  const { i18n } = useLingui();
  return <>{bankTitle({ id: row.classify_id as number, title: row.classify_title, title_en: row.classify_title_en }, i18n.locale)}</>;
}
