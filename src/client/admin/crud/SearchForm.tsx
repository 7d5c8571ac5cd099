import { Trans, useLingui } from "@lingui/react/macro";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../ui/Button.tsx";
import { controlClass, FieldFrame } from "../../ui/form/Field.tsx";
import { operatorOf } from "./api.ts";
import { useRemoteChoices } from "./fields/RemoteOptions.tsx";
import { Select } from "../../ui/Select.tsx";
import type { FieldControlProps } from "../../ui/form/Field.tsx";
import type { CrudColumn, SearchItem } from "./types.ts";
import { localInputToSeconds } from "./values.ts";

type Inputs = Record<string, { from: string; to: string }>;

/**
 * The `search[]` items of the inputs: text and select give one value (LIKE / eq unless the
 * column names another operator), number and datetime a "from,to" RANGE with either side
 * optional (datetimes as unix seconds). Empty inputs give nothing.
 */
export function searchItems(columns: CrudColumn[], inputs: Inputs): SearchItem[] {
  const items: SearchItem[] = [];
  for (const column of columns) {
    if (!column.search) continue;
    const input = inputs[column.field];
    if (!input) continue;
    const operator = column.operator ?? operatorOf(column.search);
    if (column.search === "text" || column.search === "select") {
      if (input.from.trim() !== "") items.push({ field: column.field, val: input.from.trim(), operator });
      continue;
    }
    const side = (v: string) => (column.search === "datetime" ? String(localInputToSeconds(v) ?? "") : v.trim());
    const from = side(input.from);
    const to = side(input.to);
    if (from !== "" || to !== "") items.push({ field: column.field, val: `${from},${to}`, operator });
  }
  return items;
}

/** Free text on every side: a search refuses nothing, an input left empty gives no item. */
const searchSchema = z.object({ inputs: z.array(z.object({ from: z.string(), to: z.string() })) });
type SearchValues = z.infer<typeof searchSchema>;

/** The search form of a list: one input (or a from/to pair) per searchable column. */
export function SearchForm({ columns, onSearch }: { columns: CrudColumn[]; onSearch: (items: SearchItem[]) => void }) {
  const { t, i18n } = useLingui();
  const searchable = useMemo(() => columns.filter((c) => c.search), [columns]);
  // The inputs by the column's place in the form, not its field name (a name may hold a dot, a path to react-hook-form).
  const empty = useMemo(() => ({ inputs: searchable.map(() => ({ from: "", to: "" })) }), [searchable]);
  const form = useForm<SearchValues>({ defaultValues: empty, resolver: zodResolver(searchSchema) });
  const search = form.handleSubmit(({ inputs }) => onSearch(searchItems(searchable, Object.fromEntries(searchable.map((c, i) => [c.field, inputs[i] ?? { from: "", to: "" }])))));

  return (
    <form
      role="search"
      aria-label={t`Search form`}
      className="grid grid-cols-1 gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-3 dark:border-slate-700 dark:bg-slate-900"
      onSubmit={(e) => void search(e)}
    >
      {searchable.map((column, i) => {
        const label = i18n._(column.label);
        if (column.search === "select") {
          return (
            <FieldFrame key={column.field} label={label}>
              {(control) => (
                <Controller control={form.control} name={`inputs.${i}.from`} render={({ field }) => <SearchSelect control={control} column={column} value={field.value} onChange={field.onChange} />} />
              )}
            </FieldFrame>
          );
        }
        if (column.search === "text") {
          return (
            <FieldFrame key={column.field} label={label}>
              {(control) => <input {...control} type="search" {...form.register(`inputs.${i}.from`)} className={controlClass()} />}
            </FieldFrame>
          );
        }
        const type = column.search === "datetime" ? "datetime-local" : "number";
        return (
          <FieldFrame key={column.field} label={label} group>
            {() => (
              <div className="flex items-center gap-2">
                <input type={type} aria-label={t`${label} from`} {...form.register(`inputs.${i}.from`)} className={`${controlClass()} min-w-0 flex-1`} />
                <span aria-hidden>–</span>
                <input type={type} aria-label={t`${label} to`} {...form.register(`inputs.${i}.to`)} className={`${controlClass()} min-w-0 flex-1`} />
              </div>
            )}
          </FieldFrame>
        );
      })}
      <div className="flex flex-wrap items-end gap-2 sm:col-span-full">
        <Button type="submit" variant="primary">
          <Trans>Search</Trans>
        </Button>
        <Button
          onClick={() => {
            form.reset(empty);
            onSearch([]);
          }}
        >
          <Trans>Reset</Trans>
        </Button>
      </div>
    </form>
  );
}

/** A select column's search input: "all", then its options and (remote columns) the other resource's rows. */
function SearchSelect({ control, column, value, onChange }: { control: FieldControlProps; column: CrudColumn; value: string; onChange: (value: string) => void }) {
  const { t, i18n } = useLingui();
  const remote = useRemoteChoices(column.remote);
  const options = [...(column.options ?? []).map((o) => ({ value: String(o.value), label: i18n._(o.label) })), ...remote];
  return <Select control={control} value={value} onChange={onChange} emptyLabel={t`All`} options={options} />;
}
