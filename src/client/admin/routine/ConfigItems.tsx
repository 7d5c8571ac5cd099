import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useState, type FormEvent, type ReactElement, type ReactNode, type Ref } from "react";
import {
  CONFIG_ITEM_TYPES,
  RULES_BY_TYPE,
  configGroupAdd,
  emptyValue,
  itemShapeProblem,
  itemValueProblem,
  type ConfigGroupView,
  type ConfigItemRule,
  type ConfigItemType,
  type ConfigItemView,
  type ConfigOption,
} from "../../../shared/admin/configItems.ts";
import { fieldMessage } from "../../../shared/schema.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { FormAlert, FormFooter } from "../../ui/FormFooter.tsx";
import { controlClass, FieldFrame, type FieldControlProps } from "../../ui/form/Field.tsx";
import { Select } from "../../ui/Select.tsx";
import { Switch } from "../../ui/Switch.tsx";
import { useDirtyForm } from "../../ui/discardGuard.tsx";
import { fieldErrorsOf } from "../crud/api.ts";
import { ImageField } from "../crud/fields/ImageField.tsx";

/**
 * The config screen's added groups and items (src/shared/admin/configItems.ts): the dialogs
 * that add them, the control of an added item in its group's form, and its delete button.
 */

export const TYPE_TITLES: Record<ConfigItemType, MessageDescriptor> = {
  string: msg`Text (one line)`,
  text: msg`Text (several lines)`,
  number: msg`Number`,
  switch: msg`Switch`,
  select: msg`Select`,
  image: msg`Image`,
};

const RULE_TITLES: Record<ConfigItemRule, MessageDescriptor> = {
  required: msg`Required`,
  number: msg`Number`,
  integer: msg`Whole number`,
  email: msg`Email`,
  url: msg`Web address`,
  mobile: msg`Mobile number`,
};

/** The control of an added item inside its group's form (react-hook-form's field, taken apart). */
export function ItemControl({
  item,
  control,
  name,
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  readOnly,
}: {
  item: ConfigItemView;
  control: FieldControlProps;
  name: string;
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur: () => void;
  inputRef?: Ref<HTMLElement>;
  error: string | undefined;
  readOnly: boolean;
}): ReactElement {
  switch (item.type) {
    case "switch":
      return <Switch control={control} ref={inputRef as Ref<HTMLButtonElement>} checked={value === true} disabled={readOnly} onToggle={() => onChange(value !== true)} />;
    case "select":
      return (
        <Select
          control={control}
          ref={inputRef as Ref<HTMLButtonElement>}
          name={name}
          value={typeof value === "string" ? value : ""}
          onChange={onChange}
          onBlur={onBlur}
          disabled={readOnly}
          options={item.options}
        />
      );
    case "image":
      return <ImageField control={control} value={value} onChange={readOnly ? () => undefined : onChange} topic="config" />;
    case "text":
      return (
        <textarea
          {...control}
          name={name}
          ref={inputRef as Ref<HTMLTextAreaElement>}
          rows={4}
          readOnly={readOnly}
          value={typeof value === "string" ? value : ""}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          className={`${controlClass(error)} py-2`}
        />
      );
    default:
      return (
        <input
          {...control}
          type={item.type === "number" ? "number" : "text"}
          inputMode={item.type === "number" ? "decimal" : undefined}
          autoComplete="off"
          name={name}
          ref={inputRef as Ref<HTMLInputElement>}
          readOnly={readOnly}
          value={value === null || value === undefined || Number.isNaN(value) ? "" : String(value as string | number)}
          onChange={(e) => onChange(item.type === "number" ? (e.target.value === "" ? null : Number(e.target.value)) : e.target.value)}
          onBlur={onBlur}
          className={controlClass(error)}
        />
      );
  }
}

/**
 * Deleting after asking: `ask` opens the confirmation that `dialog(title, description)` draws,
 * whose Delete posts `{name}` to `url`, then `onDeleted`; a refused delete leaves it open unless
 * `closeOnError`.
 */
function useConfirmedDelete(url: string, name: string, onDeleted: () => Promise<unknown>, closeOnError = false) {
  const [open, setOpen] = useState(false);
  const del = useMutation({
    mutationFn: () => request({ url, method: "post", data: { name } }, { showSuccessMessage: true }),
    onSuccess: async () => {
      setOpen(false);
      await onDeleted();
    },
    onError: () => {
      if (closeOnError) setOpen(false);
    },
  });
  const dialog = (title: ReactNode, description: ReactNode) => (
    <ConfirmDialog open={open} onOpenChange={setOpen} title={title} description={description} confirmLabel={<Trans>Delete</Trans>} busy={del.isPending} onConfirm={() => del.mutate()} />
  );
  return { ask: () => setOpen(true), dialog };
}

/** Deletes an added item, after asking (its value goes with it). */
export function DeleteItemButton({ item, onDeleted }: { item: ConfigItemView; onDeleted: () => Promise<unknown> }) {
  const { t } = useLingui();
  const { ask, dialog } = useConfirmedDelete("/admin/routine/config/del", item.name, onDeleted);
  const itemTitle = item.title;
  const itemName = item.name;
  return (
    <>
      <Button variant="bare" aria-label={t`Delete the item ${itemTitle}`} className="rounded p-2 text-slate-500 hover:bg-red-50 hover:text-red-700 dark:hover:bg-red-950" onClick={ask}>
        <Trash2 className="size-4" aria-hidden />
      </Button>
      {dialog(<Trans>Delete the item {itemTitle}?</Trans>, <Trans>Its value is deleted with it. Code or pages that read {itemName} get nothing.</Trans>)}
    </>
  );
}

/** Deletes an added group that has no items left. */
export function DeleteGroupButton({ group, onDeleted }: { group: ConfigGroupView; onDeleted: () => Promise<unknown> }) {
  const { ask, dialog } = useConfirmedDelete("/admin/routine/config/delGroup", group.name, onDeleted, true);
  const groupTitle = group.title;
  return (
    <>
      <Button onClick={ask}>
        <Trash2 className="size-4" aria-hidden />
        <Trans>Delete this group</Trans>
      </Button>
      {dialog(<Trans>Delete the group {groupTitle}?</Trans>, <Trans>Only a group without items can be deleted.</Trans>)}
    </>
  );
}

type Errors = Record<string, string>;

/** The server's refusal of a dialog's form: its fields' messages, or its one message. */
function refusalOf(error: unknown): { fields: Errors; message: string | null } | null {
  const refusal = serverRefusal(error);
  if (!refusal) return null;
  const fields = fieldErrorsOf(refusal.data) ?? {};
  return { fields, message: Object.keys(fields).length > 0 ? null : refusal.msg };
}

/**
 * An add dialog's form: its fields' errors and its one message, and `onSubmit`, which shows the
 * problems `check` finds in the body or else posts it to `url` and, once added, calls `onAdded`;
 * `dirty` keeps the dialog from closing on unsaved input.
 */
function useAddForm<B>(url: string, dirty: boolean, check: () => { body: B; found: Errors }, onAdded: (body: B) => Promise<unknown>) {
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const markSaved = useDirtyForm(dirty);
  const add = useMutation({ mutationFn: (body: B) => request({ url, method: "post", data: body }, { showSuccessMessage: true, showCodeMessage: false }) });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const { body, found } = check();
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    add.mutate(body, {
      onSuccess: async () => {
        markSaved();
        await onAdded(body);
      },
      onError: (error) => {
        const refusal = refusalOf(error);
        if (!refusal) return;
        setErrors(refusal.fields);
        setFormError(refusal.message);
      },
    });
  };
  return { errors, formError, onSubmit, busy: add.isPending };
}

export function AddGroupDialog({ open, onOpenChange, onAdded }: { open: boolean; onOpenChange: (open: boolean) => void; onAdded: (name: string) => Promise<unknown> }) {
  const { t } = useLingui();
  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title={t`Add a config group`}>
      {open && <AddGroupForm onCancel={() => onOpenChange(false)} onAdded={onAdded} />}
    </DialogFrame>
  );
}

function AddGroupForm({ onCancel, onAdded }: { onCancel: () => void; onAdded: (name: string) => Promise<unknown> }) {
  const { i18n } = useLingui();
  const [name, setName] = useState("");
  const [title, setTitle] = useState("");
  const check = () => {
    const body = { name: name.trim(), title: title.trim() };
    const parsed = configGroupAdd.safeParse(body);
    const found: Errors = {};
    for (const issue of parsed.error?.issues ?? []) {
      const key = String(issue.path[0]);
      const message = fieldMessage(configGroupAdd, issue.path as (string | number)[]);
      if (message && !found[key]) found[key] = i18n._(message);
    }
    return { body, found };
  };
  const { errors, formError, onSubmit, busy } = useAddForm("/admin/routine/config/addGroup", name !== "" || title !== "", check, (body) => onAdded(body.name));
  return (
    <form noValidate className="space-y-4" onSubmit={onSubmit}>
      <NameField value={name} onChange={setName} error={errors.name} />
      <FieldFrame label={<Trans>Title</Trans>} hint={<Trans>The tab's name on this screen</Trans>} error={errors.title}>
        {(control) => <input {...control} value={title} onChange={(e) => setTitle(e.target.value)} autoComplete="off" className={controlClass(errors.title)} />}
      </FieldFrame>
      <FormAlert text={formError} />
      <FormFooter busy={busy} submit={<Trans>Add</Trans>} onCancel={onCancel} />
    </form>
  );
}

function NameField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  return (
    <FieldFrame label={<Trans>Name</Trans>} hint={<Trans>The key code reads: lowercase letters, digits and _, such as contact_phone</Trans>} error={error}>
      {(control) => <input {...control} value={value} onChange={(e) => onChange(e.target.value)} autoComplete="off" spellCheck={false} className={`${controlClass(error)} font-mono`} />}
    </FieldFrame>
  );
}

/** "value|label" lines (a line without "|" is both). */
function optionsOf(text: string): ConfigOption[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const cut = line.indexOf("|");
      return cut < 0 ? { value: line, label: line } : { value: line.slice(0, cut).trim(), label: line.slice(cut + 1).trim() };
    });
}

export function AddItemDialog({
  open,
  onOpenChange,
  groups,
  groupTitle,
  group,
  onAdded,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  groups: ConfigGroupView[];
  groupTitle: (group: ConfigGroupView) => string;
  group: string;
  onAdded: (group: string) => Promise<unknown>;
}) {
  const { t } = useLingui();
  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} size="lg" title={t`Add a config item`}>
      {open && <AddItemForm groups={groups} groupTitle={groupTitle} initialGroup={group} onCancel={() => onOpenChange(false)} onAdded={onAdded} />}
    </DialogFrame>
  );
}

function AddItemForm({
  groups,
  groupTitle,
  initialGroup,
  onCancel,
  onAdded,
}: {
  groups: ConfigGroupView[];
  groupTitle: (group: ConfigGroupView) => string;
  initialGroup: string;
  onCancel: () => void;
  onAdded: (group: string) => Promise<unknown>;
}) {
  const { t, i18n } = useLingui();
  const [group, setGroup] = useState(initialGroup);
  const [name, setName] = useState("");
  const [title, setTitle] = useState("");
  const [type, setType] = useState<ConfigItemType>("string");
  const [optionsText, setOptionsText] = useState("");
  const [value, setValue] = useState<string | number | boolean | null>("");
  const [rules, setRules] = useState<ConfigItemRule[]>([]);
  const [tip, setTip] = useState("");
  const options = optionsOf(optionsText);

  const chooseType = (next: ConfigItemType) => {
    setType(next);
    setValue(emptyValue(next));
    setRules((current) => current.filter((rule) => RULES_BY_TYPE[next].includes(rule)));
  };

  const check = () => {
    const body = { name: name.trim(), group, title: title.trim(), type, value, options: type === "select" ? options : [], rules, tip: tip.trim() };
    const found: Errors = {};
    if (!/^[a-z_][a-z0-9_]*$/.test(body.name) || body.name.length > 40) found.name = t`Please enter an item name of lowercase letters, digits and _ (at most 40, not starting with a digit)`;
    if (body.title === "" || body.title.length > 50) found.title = t`Please enter a title (at most 50 characters)`;
    const shape = itemShapeProblem(body);
    if (shape) found[type === "select" ? "options" : "rules"] = i18n._(shape);
    const problem = shape ? null : itemValueProblem(body, value, true);
    if (problem) found.value = i18n._(problem);
    return { body, found };
  };
  const dirty = name !== "" || title !== "" || optionsText !== "" || tip !== "" || (value !== "" && value !== null && value !== false);
  const { errors, formError, onSubmit, busy } = useAddForm("/admin/routine/config/add", dirty, check, (body) => onAdded(body.group));

  const valueItem: ConfigItemView = { name: "value", group, title, type, value, options, rules, tip };
  return (
    <form noValidate className="space-y-4" onSubmit={onSubmit}>
      <FieldFrame label={<Trans>Group</Trans>} error={errors.group}>
        {(control) => <Select control={control} value={group} onChange={setGroup} options={groups.map((g) => ({ value: g.name, label: groupTitle(g) }))} />}
      </FieldFrame>
      <NameField value={name} onChange={setName} error={errors.name} />
      <FieldFrame label={<Trans>Title</Trans>} hint={<Trans>The field's label on this screen</Trans>} error={errors.title}>
        {(control) => <input {...control} value={title} onChange={(e) => setTitle(e.target.value)} autoComplete="off" className={controlClass(errors.title)} />}
      </FieldFrame>
      <FieldFrame label={<Trans>Type</Trans>} error={errors.type}>
        {(control) => <Select control={control} value={type} onChange={(next) => chooseType(next as ConfigItemType)} options={CONFIG_ITEM_TYPES.map((k) => ({ value: k, label: i18n._(TYPE_TITLES[k]) }))} />}
      </FieldFrame>
      {type === "select" && (
        <FieldFrame label={<Trans>Options</Trans>} hint={<Trans>One a line: value|label (a line without | is both)</Trans>} error={errors.options}>
          {(control) => <textarea {...control} rows={4} value={optionsText} onChange={(e) => setOptionsText(e.target.value)} className={`${controlClass(errors.options)} py-2 font-mono`} />}
        </FieldFrame>
      )}
      <FieldFrame label={<Trans>Default value</Trans>} error={errors.value}>
        {(control) => (
          <ItemControl
            item={valueItem}
            control={control}
            name="value"
            value={value}
            onChange={(next) => setValue(next as string | number | boolean | null)}
            onBlur={() => undefined}
            error={errors.value}
            readOnly={false}
          />
        )}
      </FieldFrame>
      {RULES_BY_TYPE[type].length > 0 && (
        <FieldFrame label={<Trans>Validation rules</Trans>} group error={errors.rules}>
          {() => (
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {RULES_BY_TYPE[type].map((rule) => (
                <label key={rule} className="inline-flex min-h-11 items-center gap-2">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={rules.includes(rule)}
                    onChange={(e) => setRules((current) => (e.target.checked ? [...current, rule] : current.filter((r) => r !== rule)))}
                  />
                  {i18n._(RULE_TITLES[rule])}
                </label>
              ))}
            </div>
          )}
        </FieldFrame>
      )}
      <FieldFrame label={<Trans>Tip</Trans>} hint={<Trans>Shown under the field, as this line is</Trans>} error={errors.tip}>
        {(control) => <input {...control} value={tip} onChange={(e) => setTip(e.target.value)} autoComplete="off" className={controlClass(errors.tip)} />}
      </FieldFrame>
      <FormAlert text={formError} />
      <FormFooter busy={busy} submit={<Trans>Add</Trans>} onCancel={onCancel} />
    </form>
  );
}
