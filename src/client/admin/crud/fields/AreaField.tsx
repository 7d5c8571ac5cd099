import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { request } from "../../../api/index.ts";
import { controlClass, type FieldControlProps } from "../../../ui/form/Field.tsx";

interface AreaOption {
  label: string;
  value: string;
}

/** The codes of an `area` value: [province, city] (an array, or older comma-separated text). */
export function areaCodes(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === "string" && value !== "" ? value.split(",") : [];
  return list.filter((v): v is string => typeof v === "string" && v !== "").slice(0, 2);
}

function useArea(params: { province?: string } | null) {
  return useQuery({
    queryKey: ["admin", "area", params?.province ?? ""],
    enabled: params !== null,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async ({ signal }) => (await request<AreaOption[]>({ url: "/admin/ajax/area", method: "get", params: params ?? {}, signal })).data,
  });
}

/**
 * The `area` form field: a province, then one of its cities (`GET /admin/ajax/area`), stored as
 * `[provinceCode, cityCode]`. Two labelled native selects, so it works by keyboard and on phones.
 */
export function AreaField({ control, value, onChange, error }: { control: FieldControlProps; value: unknown; onChange: (value: unknown) => void; error?: unknown }) {
  const { t } = useLingui();
  const [province = "", city = ""] = areaCodes(value);
  const provinces = useArea({});
  const cities = useArea(province ? { province } : null);
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <select {...control} value={province} onChange={(e) => onChange(e.target.value ? [e.target.value] : [])} className={controlClass(error)}>
        <option value="">{provinces.isLoading ? t`Loading…` : t`Province`}</option>
        {(provinces.data ?? []).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <select aria-label={t`City`} value={city} disabled={!province} onChange={(e) => onChange(e.target.value ? [province, e.target.value] : [province])} className={controlClass(error)}>
        <option value="">{cities.isLoading ? t`Loading…` : t`City`}</option>
        {(cities.data ?? []).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
