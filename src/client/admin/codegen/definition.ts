import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { ruleOfDesign, rowSchema, type GenDesign, type GenField } from "../../../shared/admin/codegen.ts";
import type { ColumnRender, CrudColumn, CrudDefinition, CrudFormField, CrudOption, FormFieldKind, SearchKind } from "../crud/types.ts";

/**
 * A generated resource's screen definition, made from its design as the server stores it (the
 * client cannot have it compiled in): the same list and form screen as the built-in resources,
 * validated with the same row schema as the server's.
 */

/** Text the admin typed in the design (a title, a comment): shown as it is, in every language. */
export const typed = (text: string): MessageDescriptor => ({ id: text, message: text });

const labelOf = (field: GenField): MessageDescriptor => typed(field.comment || field.name);

const YES_NO: CrudOption[] = [
  { value: 1, label: msg`Yes` },
  { value: 0, label: msg`No` },
];

const optionsOf = (field: GenField): CrudOption[] | undefined =>
  field.type === "enum" ? field.options.map((o) => ({ value: o, label: typed(field.optionLabels?.[o] || o) })) : field.type === "bool" ? YES_NO : undefined;

function renderOf(field: GenField): ColumnRender {
  switch (field.type) {
    case "bool":
      return "switch";
    case "datetime":
      return "datetime";
    case "int":
    case "bigint":
    case "decimal":
      return "number";
    case "enum":
      return "tag";
    default:
      return "text";
  }
}

function searchOf(field: GenField): Pick<CrudColumn, "search" | "operator"> {
  if (field.search === "none") return {};
  if (field.type === "enum" || field.type === "bool") return { search: "select" };
  if (field.search === "LIKE") return { search: "text" };
  const kind: SearchKind = field.type === "datetime" ? "datetime" : field.type === "int" || field.type === "bigint" ? "number" : "text";
  if (field.search === "RANGE") return { search: kind };
  return { search: kind, operator: "eq" };
}

const KINDS: Record<Exclude<GenField["form"], "none">, FormFieldKind> = {
  text: "text",
  textarea: "textarea",
  number: "number",
  switch: "switch",
  select: "select",
  radio: "radio",
  datetime: "datetime",
};

function initialOf(field: GenField): unknown {
  const v = field.default;
  switch (field.type) {
    case "int":
    case "bigint":
    case "datetime":
      return v === "" ? 0 : Number(v);
    case "decimal":
      return v === "" ? "0" : v;
    case "bool":
      return v === "1" || v === "true";
    default:
      return v;
  }
}

/** `locale` "en" titles the screen with the design's English title (when it has one), like its menu. */
export function definitionOf(design: GenDesign, locale = ""): CrudDefinition {
  const columns: CrudColumn[] = [{ field: "id", label: msg`ID`, render: "number", sortable: true }];
  for (const field of design.fields) {
    if (!field.list) continue;
    columns.push({ field: field.name, label: labelOf(field), render: renderOf(field), options: optionsOf(field), sortable: true, ...searchOf(field) });
  }
  if (design.sortable) columns.push({ field: "weigh", label: msg`Weight`, render: "number", sortable: true, hidden: true });
  columns.push({ field: "create_time", label: msg`Created`, render: "datetime", sortable: true });
  columns.push({ field: "update_time", label: msg`Updated`, render: "datetime", sortable: true, hidden: true });
  const form: CrudFormField[] = design.fields.flatMap((field): CrudFormField[] =>
    field.form === "none"
      ? []
      : [
          {
            field: field.name,
            label: labelOf(field),
            kind: KINDS[field.form],
            options: field.type === "enum" ? optionsOf(field) : undefined,
            boolean: field.type === "bool" ? true : undefined,
            initial: initialOf(field),
          },
        ],
  );
  const quick = design.quickSearch.map((q) => design.fields.find((f) => f.name === q)).filter((f): f is GenField => Boolean(f));
  const schema = rowSchema(design);
  return {
    path: ruleOfDesign(design),
    title: typed(locale === "en" && design.titleEn ? design.titleEn : design.title),
    columns,
    form,
    schema,
    editSchema: schema,
    quickSearch: typed(["ID", ...quick.map((f) => f.comment || f.name)].join(", ")),
    sortable: design.sortable,
    defaultOrder: design.sortable ? "weigh,desc" : undefined,
  };
}
