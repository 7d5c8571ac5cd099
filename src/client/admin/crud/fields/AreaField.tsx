import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { request } from "../../../api/index.ts";
import type { FieldControlProps } from "../../../ui/form/Field.tsx";
import { Select } from "../../../ui/Select.tsx";

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
 * `[provinceCode, cityCode]`. Two labelled selects (keys, type-ahead, phones).
 */
export function AreaField({ control, value, onChange, error }: { control: FieldControlProps; value: unknown; onChange: (value: unknown) => void; error?: unknown }) {
  const { t } = useLingui();
  const [province = "", city = ""] = areaCodes(value);
  const provinces = useArea({});
  const cities = useArea(province ? { province } : null);
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <Select
        control={{ ...control, "aria-invalid": error ? true : undefined }}
        value={province}
        onChange={(v) => onChange(v ? [v] : [])}
        emptyLabel={provinces.isLoading ? t`Loading…` : t`Province`}
        options={provinces.data ?? []}
      />
      <Select
        ariaLabel={t`City`}
        control={{ "aria-invalid": error ? true : undefined }}
        value={city}
        disabled={!province}
        onChange={(v) => onChange(v ? [province, v] : [province])}
        emptyLabel={cities.isLoading ? t`Loading…` : t`City`}
        options={cities.data ?? []}
      />
    </div>
  );
}
