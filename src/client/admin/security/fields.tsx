import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import type { WatchableResource } from "../../../shared/admin/security.ts";
import { request } from "../../api/index.ts";
import { Select } from "../../ui/Select.tsx";
import { crudUrl } from "../crud/api.ts";
import type { CustomFieldProps } from "../crud/types.ts";
import { useFieldLabels } from "./labels.tsx";

/** The back-office resources a data-security rule may name (`GET /admin/<path>/resources`). */
function useWatchable(path: string) {
  return useQuery({
    queryKey: ["crud", path, "resources"] as const,
    queryFn: async ({ signal }) => (await request<WatchableResource[]>({ url: crudUrl(path, "resources"), method: "get", signal })).data,
    staleTime: 60_000,
  });
}

/** A select of the resources whose rows can be deleted (recycle) or edited (sensitive data). */
function controllerSelect(path: string, need: "deletable" | "editable") {
  return function ControllerSelect({ value, onChange, control }: CustomFieldProps) {
    const { t } = useLingui();
    const choices = (useWatchable(path).data ?? []).filter((r) => r[need]);
    return (
      <Select
        control={control}
        value={String(value ?? "")}
        onChange={(v) => onChange(v || null)}
        emptyLabel={t`Please select`}
        options={choices.map((r) => ({ value: r.controller, label: `${r.title} (${r.controller})` }))}
      />
    );
  };
}

export const RecycleControllerSelect = controllerSelect("security/dataRecycle", "deletable");
export const SensitiveControllerSelect = controllerSelect("security/sensitiveData", "editable");

/** Checkboxes of the fields the chosen resource's edit form has (what a sensitive-data rule may watch), by their labels. */
export function WatchedFields({ value, onChange, values, control }: CustomFieldProps) {
  const resources = useWatchable("security/sensitiveData").data ?? [];
  const labelOf = useFieldLabels(values.controller);
  const chosen = resources.find((r) => r.controller === values.controller);
  const selected = Array.isArray(value) ? (value as string[]) : [];
  if (!chosen) {
    return (
      <p id={control.id} className="text-sm text-slate-500 dark:text-slate-400">
        <Trans>Choose the data first.</Trans>
      </p>
    );
  }
  return (
    <div id={control.id} role="group" aria-describedby={control["aria-describedby"]} className="flex flex-wrap gap-x-4 gap-y-1">
      {chosen.fields.map((field) => (
        <label key={field} className="inline-flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={selected.includes(field)}
            onChange={(e) => onChange(e.target.checked ? [...selected, field] : selected.filter((f) => f !== field))}
          />
          <span title={field}>{labelOf(field)}</span>
        </label>
      ))}
    </div>
  );
}
