import type { MessageDescriptor } from "@lingui/core";
import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { definitionOf } from "../crud/definitionScreen.tsx";
import type { CrudDefinition } from "../crud/types.ts";
import { adminScreens } from "../screens.ts";

/**
 * The names staff know a resource's fields by: what its screen's form calls them, else its list's
 * columns, else its detail's labels. The data-security screens name fields this way instead of
 * by their column (`mobile` → "Mobile number"); a field no screen labels keeps its column name.
 */
export function fieldLabels(definition: CrudDefinition): Map<string, MessageDescriptor> {
  const labels = new Map<string, MessageDescriptor>();
  for (const [field, label] of Object.entries(definition.detailLabels ?? {})) labels.set(field, label);
  for (const column of definition.columns) labels.set(column.field, column.label);
  for (const field of definition.form ?? []) labels.set(field.field, field.label);
  return labels;
}

/** A resource's field labels by its rule path (`controller`, e.g. "user/user"): loaded with its screen's definition. */
export function useFieldLabels(controller: unknown): (field: string) => string {
  const { i18n } = useLingui();
  const path = typeof controller === "string" ? controller : "";
  const labels = useQuery({
    queryKey: ["admin", "fieldLabels", path] as const,
    queryFn: async () => {
      const definition = await definitionOf(Object.hasOwn(adminScreens, path) ? adminScreens[path] : undefined);
      return definition ? fieldLabels(definition) : new Map<string, MessageDescriptor>();
    },
    enabled: path !== "",
    staleTime: Infinity,
  });
  return (field) => {
    const label = labels.data?.get(field);
    return label ? i18n._(label) : field;
  };
}

/** One field of a resource by its label (its column name as the tooltip, for staff who know it). */
export function FieldLabel({ controller, field }: { controller: unknown; field: unknown }) {
  const labelOf = useFieldLabels(controller);
  const name = String(field ?? "");
  return <span title={name}>{labelOf(name)}</span>;
}

/** Several fields of a resource by their labels, comma separated. */
export function FieldLabels({ controller, fields }: { controller: unknown; fields: unknown }) {
  const labelOf = useFieldLabels(controller);
  const names = Array.isArray(fields) ? fields.map(String) : [];
  return <span title={names.join(", ")}>{names.map(labelOf).join(", ")}</span>;
}
