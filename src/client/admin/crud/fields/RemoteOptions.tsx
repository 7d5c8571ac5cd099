import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { request } from "../../../api/index.ts";
import { crudUrl } from "../api.ts";
import type { CrudRow, ListData } from "../types.ts";
import type { SelectOption } from "../../../ui/Select.tsx";

/** A row's label: `labelField`, or its `<labelField>_en` twin when the admin reads English and it is set. */
export function rowLabel(row: CrudRow, labelField: string, locale: string, valueField = "id"): string {
  const en = row[`${labelField}_en`];
  if (locale.startsWith("en") && typeof en === "string" && en.trim() !== "") return en;
  return String(row[labelField] ?? row[valueField] ?? "");
}

/** The first 100 rows of another resource (`select=1`), for choices that fit in one list. */
export function useRemoteRows(path: string, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ["crud", path, "choices"] as const,
    queryFn: async ({ signal }) => (await request<ListData>({ url: crudUrl(path, "index"), method: "get", params: { select: 1, page: 1, limit: 100, order: "id,asc" }, signal })).data.list,
    staleTime: 30_000,
  });
}

/** The choices of a select over another resource's rows (first 100; none while `path` is null). */
export function useRemoteChoices(remote: { path: string; labelField: string; valueField?: string } | undefined): SelectOption[] {
  const { i18n } = useLingui();
  const rows = useRemoteRows(remote?.path ?? "", remote !== undefined);
  if (!remote) return [];
  const valueField = remote.valueField ?? "id";
  return (rows.data ?? []).map((row) => ({ value: String(row[valueField]), label: rowLabel(row, remote.labelField, i18n.locale, valueField) }));
}
