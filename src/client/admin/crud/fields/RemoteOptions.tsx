import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { request } from "../../../api/index.ts";
import { crudUrl } from "../api.ts";
import type { CrudRow, ListData } from "../types.ts";

/** A row's label: `labelField`, or its `<labelField>_en` twin when the admin reads English and it is set. */
export function rowLabel(row: CrudRow, labelField: string, locale: string, valueField = "id"): string {
  const en = row[`${labelField}_en`];
  if (locale.startsWith("en") && typeof en === "string" && en.trim() !== "") return en;
  return String(row[labelField] ?? row[valueField] ?? "");
}

/** The first 100 rows of another resource (`select=1`), for choices that fit in one list. */
export function useRemoteRows(path: string) {
  return useQuery({
    queryKey: ["crud", path, "choices"] as const,
    queryFn: async ({ signal }) => (await request<ListData>({ url: crudUrl(path, "index"), method: "get", params: { select: 1, page: 1, limit: 100, order: "id,asc" }, signal })).data.list,
    staleTime: 30_000,
  });
}

/** `<option>`s of a search form's select over another resource's rows. */
export function RemoteOptions({ remote }: { remote: { path: string; labelField: string; valueField?: string } }) {
  const { i18n } = useLingui();
  const rows = useRemoteRows(remote.path);
  const valueField = remote.valueField ?? "id";
  return (
    <>
      {(rows.data ?? []).map((row) => (
        <option key={String(row[valueField])} value={String(row[valueField])}>
          {rowLabel(row, remote.labelField, i18n.locale, valueField)}
        </option>
      ))}
    </>
  );
}
