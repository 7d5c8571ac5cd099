import { zodResolver } from "@hookform/resolvers/zod";
import { i18n } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo, useState } from "react";
import { useForm, useWatch, type FieldError, type FieldErrors, type FieldValues, type Resolver } from "react-hook-form";
import type { z } from "zod";
import { fieldMessage } from "../../../shared/schema.ts";
import { serverRefusal } from "../../api/index.ts";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { useDirtyForm, useGuardedClose } from "../../ui/discardGuard.tsx";
import { controlClass } from "../../ui/form/Field.tsx";
import { ControlledField } from "../../ui/form/ControlledField.tsx";
import { Switch } from "../../ui/Switch.tsx";
import { fieldErrorsOf, useCrudRow, useCrudSave } from "./api.ts";
import { AreaField } from "./fields/AreaField.tsx";
import { FileField } from "./fields/FileField.tsx";
import { ImageField } from "./fields/ImageField.tsx";
import { RichTextField } from "./fields/RichTextField.tsx";
import { CustomField } from "./fields/Custom.tsx";
import { CheckboxTree } from "./fields/CheckboxTree.tsx";
import { IconPicker } from "./fields/IconPicker.tsx";
import { MultiSelect } from "./fields/MultiSelect.tsx";
import { TreeSelect } from "./fields/TreeSelect.tsx";
import { CheckboxList } from "./fields/CheckboxList.tsx";
import { RemoteSelect } from "./RemoteSelect.tsx";
import { Select } from "../../ui/Select.tsx";
import type { CrudDefinition, CrudFormField } from "./types.ts";
import { initialValue, outgoingValues, shownFields } from "./values.ts";
import { FormFooter, FormAlert } from "../../ui/FormFooter.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { LoadRetry } from "../../ui/LoadRetry.tsx";

/**
 * The schema checks the values as they will be sent (datetimes as seconds...), and the form
 * keeps its own values when they pass.
 */
function sentValuesResolver(schema: z.ZodType, fields: CrudFormField[], editing: boolean): Resolver<FieldValues> {
  const check = zodResolver(schema as never) as unknown as Resolver<FieldValues>;
  return async (values, context, options) => {
    const result = await check(outgoingValues(fields, values, editing), context, options);
    if (Object.keys(result.errors).length === 0) return { values, errors: {} };
    // A shared schema's field carries the message a person reads (`withMessage`), the one the server answers too; zod's own text is for developers.
    const errors: FieldErrors = { ...result.errors };
    for (const [key, error] of Object.entries(errors)) {
      const message = fieldMessage(schema, [key]);
      if (message && error && typeof error === "object" && "message" in error) errors[key] = { ...(error as FieldError), message: i18n._(message) };
    }
    return { values: {}, errors };
  };
}

/**
 * The add form (`id` null) or the edit form of one row, in a dialog. `preset` gives an add form
 * values of its own (a lesson added from its course's form starts in that course). With the
 * definition's `editAfterAdd`, a saved add form turns into the new row's edit form.
 */
export function CrudFormDialog({ definition, id: openedId, preset, onClose }: { definition: CrudDefinition; id: number | null; preset?: Record<string, unknown>; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const [id, setId] = useState(openedId);
  const row = useCrudRow(definition.path, id);
  const title = id === null ? t`Add` : t`Edit`;
  const done = (added?: number) => (id === null && definition.editAfterAdd && added !== undefined ? setId(added) : onClose());
  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} size="lg" title={`${title} · ${i18n._(definition.title)}`}>
      {id === null ? (
        <CrudForm definition={definition} id={null} row={null} preset={preset} onDone={done} />
      ) : row.isError ? (
        <LoadRetry message={<Trans>The row could not be loaded.</Trans>} onRetry={() => void row.refetch()} />
      ) : !row.data ? (
        <PageSpinner />
      ) : (
        <CrudForm key={id} definition={definition} id={id} row={row.data} onDone={onClose} />
      )}
    </DialogFrame>
  );
}

function CrudForm({
  definition,
  id,
  row,
  preset,
  onDone,
}: {
  definition: CrudDefinition;
  id: number | null;
  row: Record<string, unknown> | null;
  preset?: Record<string, unknown>;
  /** After a save (with the new row's id, after an add) or on cancel. */
  onDone: (added?: number) => void;
}) {
  const { t, i18n } = useLingui();
  const editing = id !== null;
  const fields = useMemo(() => (definition.form ?? []).filter((f) => !f.only || f.only === (editing ? "edit" : "add")), [definition.form, editing]);
  const schema = editing ? (definition.editSchema ?? definition.schema) : definition.schema;
  const defaultValues = useMemo(() => Object.fromEntries(fields.map((f) => [f.field, row === null && preset && f.field in preset ? preset[f.field] : initialValue(f, row)])), [fields, row, preset]);
  const form = useForm<FieldValues>({ defaultValues, resolver: schema ? sentValuesResolver(schema, fields, editing) : undefined });
  const save = useCrudSave(definition.path);
  // The values a field's `when` looks at.
  const watched = useWatch({ control: form.control }) as Record<string, unknown>;
  const [formError, setFormError] = useState<string | null>(null);
  useDirtyForm(form.formState.isDirty);
  const cancel = useGuardedClose(() => onDone());

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const res = await save.mutateAsync({ id, values: outgoingValues(fields, values, editing) });
      void definition.afterChange?.();
      const added = (res as { data?: { id?: unknown } } | undefined)?.data?.id;
      onDone(typeof added === "number" ? added : undefined);
    } catch (error) {
      const refusal = serverRefusal(error);
      if (!refusal) return; // Network trouble: the request layer said so; the form keeps its values.
      const byField = fieldErrorsOf(refusal.data);
      const known = byField ? Object.entries(byField).filter(([name]) => fields.some((f) => f.field === name)) : [];
      for (const [name, message] of known) form.setError(name, { type: "server", message }, { shouldFocus: true });
      // A refusal that names no field of this form is shown above the buttons.
      if (known.length === 0) setFormError(refusal.msg);
    }
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      {shownFields(fields, { ...defaultValues, ...watched }).map((field) => {
        const label = i18n._(field.label);
        const placeholder = field.placeholder ? i18n._(field.placeholder) : undefined;
        return (
          <ControlledField key={field.field} form={form} name={field.field} label={label} hint={field.hint ? i18n._(field.hint) : undefined} group={field.kind === "radio" || field.kind === "checkboxTree" || field.kind === "checkboxList"}>
            {(control, f, error) => {
              switch (field.kind) {
                case "custom":
                  return field.component ? <CustomField component={field.component} form={form.control} control={control} value={f.value} onChange={f.onChange} editing={editing} setValue={(name, value) => form.setValue(name, value, { shouldDirty: true })} /> : <></>;
                case "textarea":
                  return <textarea {...control} name={f.name} ref={f.ref} value={String(f.value ?? "")} onChange={f.onChange} onBlur={f.onBlur} placeholder={placeholder} rows={4} className={`${controlClass(error)} py-2`} />;
                case "number":
                  return (
                    <input
                      {...control}
                      type="number"
                      inputMode="decimal"
                      name={f.name}
                      ref={f.ref}
                      value={f.value === null || f.value === undefined || Number.isNaN(f.value) ? "" : String(f.value)}
                      onChange={(e) => f.onChange(e.target.value === "" ? null : Number(e.target.value))}
                      onBlur={f.onBlur}
                      placeholder={placeholder}
                      className={controlClass(error)}
                    />
                  );
                case "switch":
                  return <Switch control={control} ref={f.ref} checked={f.value === 1} onToggle={() => f.onChange(f.value === 1 ? 0 : 1)} />;
                case "radio":
                  return (
                    <div className="flex flex-wrap gap-x-4 gap-y-2" role="radiogroup" aria-invalid={control["aria-invalid"]}>
                      {(field.options ?? []).map((option) => (
                        <label key={String(option.value)} className="inline-flex min-h-11 items-center gap-2">
                          <input type="radio" name={f.name} checked={f.value === option.value} onChange={() => f.onChange(option.value)} className="size-4 accent-primary" />
                          {i18n._(option.label)}
                        </label>
                      ))}
                    </div>
                  );
                case "select": {
                  const options = field.options ?? [];
                  const index = options.findIndex((o) => o.value === f.value);
                  return (
                    <Select
                      control={control}
                      ref={f.ref}
                      name={f.name}
                      value={index < 0 ? "" : String(index)}
                      onChange={(v) => f.onChange(v === "" ? null : options[Number(v)]!.value)}
                      onBlur={f.onBlur}
                      emptyLabel={placeholder ?? t`Please select`}
                      options={options.map((option, i) => ({ value: String(i), label: i18n._(option.label) }))}
                    />
                  );
                }
                case "image":
                case "images":
                  return <ImageField control={control} value={f.value} onChange={f.onChange} multiple={field.kind === "images"} topic={field.topic} />;
                case "file":
                  return <FileField control={control} value={f.value} onChange={f.onChange} topic={field.topic} />;
                case "richText":
                  return <RichTextField control={control} label={label} value={f.value} onChange={f.onChange} error={error} />;
                case "area":
                  return <AreaField control={control} value={f.value} onChange={f.onChange} error={error} />;
                case "treeSelect":
                  return field.tree ? <TreeSelect control={control} path={field.tree.path} label={field.tree.label} value={f.value} onChange={f.onChange} onBlur={f.onBlur} rowId={field.tree.path === definition.path ? id : null} rootLabel={placeholder} /> : <></>;
                case "checkboxTree":
                  return field.tree ? <CheckboxTree control={control} path={field.tree.path} label={field.tree.label} value={f.value} onChange={f.onChange} /> : <></>;
                case "multiSelect":
                  return field.tree ? <MultiSelect control={control} path={field.tree.path} label={field.tree.label} value={f.value} onChange={f.onChange} /> : <></>;
                case "iconPicker":
                  return <IconPicker control={control} value={f.value} onChange={f.onChange} />;
                case "checkboxList":
                  return field.remote ? <CheckboxList remote={field.remote} value={f.value} onChange={f.onChange} invalid={!!error} /> : <></>;
                case "remoteSelect":
                  return field.remote ? <RemoteSelect control={control} remote={field.remote} value={f.value} onChange={f.onChange} placeholder={placeholder} fallbackLabel={field.remote.rowLabel && row ? row[field.remote.rowLabel] : undefined} /> : <></>;
                default: {
                  const type = field.kind === "password" ? "password" : field.kind === "date" ? "date" : field.kind === "datetime" ? "datetime-local" : "text";
                  return (
                    <input
                      {...control}
                      type={type}
                      name={f.name}
                      ref={f.ref}
                      autoComplete={field.kind === "password" ? "new-password" : "off"}
                      value={String(f.value ?? "")}
                      onChange={f.onChange}
                      onBlur={f.onBlur}
                      placeholder={placeholder ?? (field.kind === "password" && editing ? t`Leave empty to keep the current one` : undefined)}
                      className={controlClass(error)}
                    />
                  );
                }
              }
            }}
          </ControlledField>
        );
      })}
      <FormAlert text={formError} />
      <FormFooter className="pt-2" busy={form.formState.isSubmitting} onCancel={cancel} />
    </form>
  );
}
