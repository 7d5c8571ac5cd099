import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Tabs } from "radix-ui";
import { Select } from "../../ui/Select.tsx";
import { Eraser, ListPlus, MessageSquareText, Send, SquarePlus, type LucideIcon } from "lucide-react";
import { z } from "zod";
import { useState } from "react";
import { useForm, type FieldValues } from "react-hook-form";
import {
  CONFIG_GROUPS,
  CONFIG_KEYS,
  configValues,
  SECRET_KEYS,
  SMS_METHODS,
  testMailBody,
  testSmsBody,
  type ConfigGroup,
  type ConfigValues,
  type ConfigView,
  type StorageView,
} from "../../../shared/admin/routine.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { Auth, useAuth } from "../../routing/auth.tsx";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { Button } from "../../ui/Button.tsx";
import { controlClass, FieldFrame } from "../../ui/form/Field.tsx";
import { ControlledField } from "../../ui/form/ControlledField.tsx";
import { sentSchemaResolver } from "../../ui/form/sentSchemaResolver.ts";
import { Switch } from "../../ui/Switch.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { toast } from "../../ui/toast.ts";
import { actionNode } from "../crud/CrudScreen.tsx";
import { fieldErrorsOf } from "../crud/api.ts";
import type { FormFieldKind } from "../crud/types.ts";
import { FormFooter, FormAlert } from "../../ui/FormFooter.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { LoadRetry } from "../../ui/LoadRetry.tsx";
import { useDirtyForm } from "../../ui/discardGuard.tsx";
import { itemValueProblem, type ConfigGroupView, type ConfigItemView } from "../../../shared/admin/configItems.ts";
import { AddGroupDialog, AddItemDialog, DeleteGroupButton, DeleteItemButton, ItemControl } from "./ConfigItems.tsx";

/**
 * The config screen (`routine/config`): the site settings by group, each group a form of the
 * engine's field kinds checked with the shared schema (src/shared/admin/routine.ts) and saved
 * on its own; changes apply on the server at once. The mail password is write-only. Groups and
 * items added here (configItems.ts) are tabs and fields beside the built-in ones, each checked
 * by its type and rules.
 */

const PATH = "routine/config";
const KEY = ["admin", "routine", "config"] as const;

interface ConfigAnswer {
  config: ConfigView;
  storage?: StorageView;
  groups?: ConfigGroupView[];
  items?: ConfigItemView[];
}

const BUILTIN_GROUPS: ConfigGroupView[] = CONFIG_GROUPS.map((name) => ({ name, title: name, builtin: true }));
const isBuiltinGroup = (name: string): name is ConfigGroup => (CONFIG_GROUPS as readonly string[]).includes(name);

type Kind = Extract<FormFieldKind, "text" | "textarea" | "number" | "switch" | "select" | "password">;
interface Field {
  key: keyof ConfigValues;
  label: MessageDescriptor;
  kind: Kind;
  hint?: MessageDescriptor;
  /** A label as words to translate, or as it is (an HTTP method's name). */
  options?: { value: string; label: MessageDescriptor | string }[];
}

const GROUP_TITLES: Record<ConfigGroup, MessageDescriptor> = { basic: msg`Basic`, upload: msg`Upload`, login: msg`Login`, mail: msg`Mail`, sms: msg`SMS` };

// The SMS templates' placeholders, as values of the hints (braces in a message would be its own placeholders).
const MOBILE = "{mobile}";
const TEXT = "{text}";
const JSON_START = "{ [";

type SecretKey = keyof typeof SECRET_KEYS;
const isSecret = (key: string): key is SecretKey => key in SECRET_KEYS;

const FIELDS: Record<ConfigGroup, Field[]> = {
  basic: [
    { key: "site_name", label: msg`Site name`, kind: "text", hint: msg`Shown in page titles and the login page` },
    { key: "record_number", label: msg`Record number`, kind: "text", hint: msg`The ICP record number shown at the foot of the site; leave empty for none` },
  ],
  upload: [
    {
      key: "upload_mode",
      label: msg`Upload mode`,
      kind: "select",
      hint: msg`Files are sent to this server, which keeps them where the note above says`,
      options: [{ value: "local", label: msg`Through this server` }],
    },
    { key: "upload_maxsize", label: msg`Largest file`, kind: "text", hint: msg`Such as 10mb, 512kb or 1gb` },
    { key: "upload_mimetype", label: msg`Allowed file types`, kind: "text", hint: msg`Extensions or MIME types separated by commas (jpg,png,image/*), or * for all` },
    { key: "upload_rate_per_minute", label: msg`Member uploads a minute`, kind: "number", hint: msg`How many files a member may upload in any minute; admins are not limited` },
    { key: "upload_quota_mib", label: msg`Member upload space (MiB)`, kind: "number", hint: msg`Storage each member's uploads may take; a file stored twice counts once` },
  ],
  login: [
    { key: "user_login_captcha", label: msg`Captcha for member login`, kind: "switch" },
    { key: "admin_login_captcha", label: msg`Captcha for admin login`, kind: "switch" },
  ],
  mail: [
    { key: "mail_host", label: msg`SMTP server`, kind: "text", hint: msg`Leave empty to keep the server's own mail settings` },
    { key: "mail_port", label: msg`Port`, kind: "number" },
    { key: "mail_secure", label: msg`SSL/TLS`, kind: "switch" },
    { key: "mail_user", label: msg`User name`, kind: "text" },
    { key: "mail_password", label: msg`Password`, kind: "password" },
    { key: "mail_from", label: msg`Sender address`, kind: "text", hint: msg`Default: the user name` },
  ],
  sms: [
    { key: "sms_enabled", label: msg`Send text messages through the provider`, kind: "switch", hint: msg`Off, or without an address: mobile codes are only kept in the outbox table` },
    { key: "sms_url", label: msg`Provider address`, kind: "text", hint: msg`An http or https address on the internet (not this network); ${MOBILE} and ${TEXT} may be used in it` },
    { key: "sms_method", label: msg`Request method`, kind: "select", options: SMS_METHODS.map((m) => ({ value: m, label: m })), hint: msg`GET sends no body: put ${MOBILE} and ${TEXT} in the address` },
    { key: "sms_headers", label: msg`Request headers`, kind: "textarea", hint: msg`One a line, such as X-Api-Key: abc. Shown here: put a secret in the token below` },
    { key: "sms_token", label: msg`Bearer token`, kind: "password", hint: msg`Sent as Authorization: Bearer; never shown again once saved` },
    { key: "sms_body", label: msg`Body template`, kind: "textarea", hint: msg`${MOBILE} and ${TEXT} are filled in: JSON-escaped when the template starts with ${JSON_START}, else form-encoded` },
    { key: "sms_timeout", label: msg`Timeout (seconds)`, kind: "number" },
  ],
};

export default function ConfigScreen() {
  const { t, i18n } = useLingui();
  const client = useQueryClient();
  const [tab, setTab] = useState<string>("basic");
  const [adding, setAdding] = useState<"group" | "item" | null>(null);
  const config = useQuery({
    queryKey: KEY,
    queryFn: async ({ signal }) => (await request<ConfigAnswer>({ url: "/admin/routine/config/index", method: "get", signal })).data,
  });
  const groups = config.data?.groups ?? BUILTIN_GROUPS;
  const items = config.data?.items ?? [];
  const groupTitle = (group: ConfigGroupView) => (group.builtin && isBuiltinGroup(group.name) ? i18n._(GROUP_TITLES[group.name]) : group.title);
  const reload = () => client.invalidateQueries({ queryKey: KEY });
  const current = groups.some((g) => g.name === tab) ? tab : "basic";
  return (
    <section className="space-y-4" aria-labelledby="config-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 id="config-title" className="text-xl font-semibold">
          <Trans>Config</Trans>
        </h1>
        <div className="flex flex-wrap gap-2">
          <Auth node={actionNode(PATH, "add")}>
            <Button onClick={() => setAdding("group")} disabled={!config.data}>
              <SquarePlus className="size-4" aria-hidden />
              <Trans>Add group</Trans>
            </Button>
            <Button onClick={() => setAdding("item")} disabled={!config.data}>
              <ListPlus className="size-4" aria-hidden />
              <Trans>Add item</Trans>
            </Button>
          </Auth>
          <Auth node={actionNode(PATH, "edit")}>
            <ClearCache />
          </Auth>
        </div>
      </div>
      {config.isError ? (
        <LoadRetry className="space-y-3 py-10 text-center" message={<Trans>The settings could not be loaded.</Trans>} onRetry={() => void config.refetch()} />
      ) : !config.data ? (
        <PageSpinner className="my-10" />
      ) : (
        <Tabs.Root value={current} onValueChange={setTab} className="rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
          <Tabs.List aria-label={t`Settings groups`} className="flex overflow-x-auto border-b border-slate-200 dark:border-slate-700">
            {groups.map((group) => (
              <Tabs.Trigger
                key={group.name}
                value={group.name}
                className="min-h-11 shrink-0 border-b-2 border-transparent px-4 text-slate-600 outline-none hover:text-primary focus-visible:ring-2 focus-visible:ring-primary data-[state=active]:border-primary data-[state=active]:font-medium data-[state=active]:text-primary dark:text-slate-300"
              >
                {groupTitle(group)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {/* Every group's form stays mounted (the others hidden), so switching tabs keeps what was typed in each. */}
          {groups.map((group) => {
            const own = items.filter((item) => item.group === group.name);
            const test = TEST_SENDS[group.name];
            return (
              <Tabs.Content key={group.name} value={group.name} forceMount hidden={group.name !== current} className="p-4 outline-none sm:p-6">
                {group.name === "upload" && config.data.storage && <StorageNote storage={config.data.storage} />}
                {/* A new or deleted item makes a new form (its fields and schema change). */}
                <GroupForm key={own.map((item) => item.name).join(",")} group={group} title={groupTitle(group)} view={config.data.config} items={own} onItemDeleted={reload} />
                {test && <TestSend {...test} />}
                {!group.builtin && own.length === 0 && (
                  <Auth node={actionNode(PATH, "del")}>
                    <div className="mt-6 max-w-2xl border-t border-slate-200 pt-4 dark:border-slate-700">
                      <DeleteGroupButton
                        group={group}
                        onDeleted={async () => {
                          setTab("basic");
                          await reload();
                        }}
                      />
                    </div>
                  </Auth>
                )}
              </Tabs.Content>
            );
          })}
        </Tabs.Root>
      )}
      <AddGroupDialog
        open={adding === "group"}
        onOpenChange={(open) => setAdding(open ? "group" : null)}
        onAdded={async (name) => {
          setAdding(null);
          await reload();
          setTab(name);
        }}
      />
      <AddItemDialog
        open={adding === "item"}
        onOpenChange={(open) => setAdding(open ? "item" : null)}
        groups={groups}
        groupTitle={groupTitle}
        group={current}
        onAdded={async (group) => {
          setAdding(null);
          await reload();
          setTab(group);
        }}
      />
    </section>
  );
}

function GroupForm({ group: groupView, title, view, items, onItemDeleted }: { group: ConfigGroupView; title: string; view: ConfigView; items: ConfigItemView[]; onItemDeleted: () => Promise<unknown> }) {
  const { t, i18n } = useLingui();
  const client = useQueryClient();
  const canEdit = useAuth(actionNode(PATH, "edit"));
  const group = groupView.name;
  const builtin = isBuiltinGroup(group);
  const fields = builtin ? FIELDS[group] : [];
  const keys: readonly string[] = [...(builtin ? CONFIG_KEYS[group] : []), ...items.map((item) => item.name)];
  const builtinKeys = builtin ? CONFIG_KEYS[group] : [];
  // The built-in keys by the shared schema; an added item by its type and rules (as the server checks them).
  const schema = configValues.pick(Object.fromEntries(builtinKeys.map((k) => [k, true])) as Record<keyof ConfigValues, true>).extend(
    Object.fromEntries(
      items.map((item) => [
        item.name,
        z.unknown().superRefine((value, ctx) => {
          const problem = itemValueProblem(item, value);
          if (problem) ctx.addIssue({ code: "custom", message: i18n._(problem) });
        }),
      ]),
    ),
  );
  const defaultValues = Object.fromEntries([
    ...builtinKeys.map((k) => [k, isSecret(k) ? "" : view[k as keyof ConfigView]]),
    ...items.map((item) => [item.name, item.value]),
  ]);
  // A refused value shows its field's own words (withMessage), as the server would answer.
  const form = useForm<FieldValues>({ defaultValues, resolver: sentSchemaResolver<FieldValues>(schema, (values) => values) });
  const [formError, setFormError] = useState<string | null>(null);
  useDirtyForm(form.formState.isDirty);
  const save = useMutation({
    mutationFn: (values: FieldValues) => request({ url: "/admin/routine/config/edit", method: "post", data: values }, { showSuccessMessage: true, showCodeMessage: false }),
  });

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const body = { ...values };
    // A secret left empty keeps the stored one.
    for (const key of Object.keys(SECRET_KEYS)) if (body[key] === "") delete body[key];
    try {
      await save.mutateAsync(body);
      // The app's own copy of the site config follows at once (upload checks, page titles).
      const site = useSiteConfig.getState();
      if (group === "basic") site.dataFill({ siteName: String(values.site_name), recordNumber: String(values.record_number) });
      if (group === "upload") site.dataFill({ upload: { ...site.upload, mode: String(values.upload_mode), maxsize: String(values.upload_maxsize), mimetype: String(values.upload_mimetype) } });
      form.reset({ ...values, ...Object.fromEntries(builtinKeys.filter(isSecret).map((k) => [k, ""])) });
      await client.invalidateQueries({ queryKey: KEY });
    } catch (error) {
      const refusal = serverRefusal(error);
      if (!refusal) return;
      const byField = Object.entries(fieldErrorsOf(refusal.data) ?? {}).filter(([name]) => keys.includes(name));
      for (const [name, message] of byField) form.setError(name, { type: "server", message }, { shouldFocus: true });
      if (byField.length === 0) setFormError(refusal.msg);
    }
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="max-w-2xl space-y-4" aria-label={title}>
      {fields.map((field) => {
        return (
          <ControlledField key={field.key} form={form} name={field.key} label={i18n._(field.label)} hint={field.hint ? i18n._(field.hint) : undefined}>
            {(control, f, error) => {
              switch (field.kind) {
                case "switch":
                  return <Switch control={control} ref={f.ref} checked={f.value === true} disabled={!canEdit} onToggle={() => f.onChange(!f.value)} />;
                case "textarea":
                  return (
                    <textarea
                      {...control}
                      name={f.name}
                      ref={f.ref}
                      readOnly={!canEdit}
                      rows={3}
                      spellCheck={false}
                      value={String(f.value ?? "")}
                      onChange={(e) => f.onChange(e.target.value)}
                      onBlur={f.onBlur}
                      className={`${controlClass(error)} font-mono text-sm`}
                    />
                  );
                case "select":
                  return (
                    <Select
                      control={control}
                      ref={f.ref}
                      name={f.name}
                      value={String(f.value ?? "")}
                      onChange={f.onChange}
                      onBlur={f.onBlur}
                      disabled={!canEdit}
                      options={(field.options ?? []).map((o) => ({ value: o.value, label: typeof o.label === "string" ? o.label : i18n._(o.label) }))}
                    />
                  );
                default:
                  return (
                    <input
                      {...control}
                      type={field.kind === "password" ? "password" : field.kind === "number" ? "number" : "text"}
                      inputMode={field.kind === "number" ? "numeric" : undefined}
                      autoComplete={field.kind === "password" ? "new-password" : "off"}
                      name={f.name}
                      ref={f.ref}
                      readOnly={!canEdit}
                      value={f.value === null || f.value === undefined || Number.isNaN(f.value) ? "" : String(f.value)}
                      onChange={(e) => f.onChange(field.kind === "number" ? (e.target.value === "" ? null : Number(e.target.value)) : e.target.value)}
                      onBlur={f.onBlur}
                      placeholder={isSecret(field.key) ? (view[SECRET_KEYS[field.key]] ? t`Set: leave empty to keep it` : t`Not set`) : undefined}
                      className={controlClass(error)}
                    />
                  );
              }
            }}
          </ControlledField>
        );
      })}
      {items.map((item) => (
        <div key={item.name} className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <ControlledField form={form} name={item.name} label={item.title} hint={item.tip || undefined}>
              {(control, f, error) => (
                <ItemControl item={item} control={control} name={f.name} value={f.value} onChange={f.onChange} onBlur={f.onBlur} inputRef={f.ref} error={error} readOnly={!canEdit} />
              )}
            </ControlledField>
          </div>
          <Auth node={actionNode(PATH, "del")}>
            <div className="pt-6">
              <DeleteItemButton item={item} onDeleted={onItemDeleted} />
            </div>
          </Auth>
        </div>
      ))}
      {keys.length === 0 && (
        <p className="text-sm text-slate-500 dark:text-slate-400">
          <Trans>No items in this group yet: add one with "Add item".</Trans>
        </p>
      )}
      <FormAlert text={formError} />
      {keys.length > 0 && (
        <Auth node={actionNode(PATH, "edit")}>
          <FormFooter busy={form.formState.isSubmitting} />
        </Auth>
      )}
    </form>
  );
}

/** Where uploads go, as the server's environment set it: not a setting of this screen. */
function StorageNote({ storage }: { storage: StorageView }) {
  const bucket = storage.kind === "s3" ? storage.bucket : "";
  return (
    <div role="note" className="mb-4 max-w-2xl rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200">
      {storage.kind === "s3" ? (
        <>
          <p>
            <Trans>Uploaded files are stored in S3 bucket {bucket}, set by the server's environment (STORAGE=s3).</Trans>
          </p>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-slate-500 dark:text-slate-400">
              <Trans>Endpoint</Trans>
            </dt>
            <dd className="break-all">{storage.endpoint || <Trans>AWS (by region)</Trans>}</dd>
            <dt className="text-slate-500 dark:text-slate-400">
              <Trans>Region</Trans>
            </dt>
            <dd>{storage.region}</dd>
            {storage.prefix && (
              <>
                <dt className="text-slate-500 dark:text-slate-400">
                  <Trans>Key prefix</Trans>
                </dt>
                <dd className="break-all">{storage.prefix}</dd>
              </>
            )}
          </dl>
        </>
      ) : (
        <p>
          <Trans>Uploaded files are stored on this server's disk (the storage folder of its data directory). The server's environment can set S3 storage instead (STORAGE=s3).</Trans>
        </p>
      )}
    </div>
  );
}

interface TestSendProps {
  /** Where it is sent, and how the address travels and is checked before sending. */
  send: { url: string; field: "to" | "mobile"; check: (value: string) => boolean };
  input: { type: "email" | "tel"; icon: LucideIcon };
  copy: { invalid: MessageDescriptor; label: MessageDescriptor; button: MessageDescriptor };
}

/**
 * The test messages of the mail and SMS groups, through the settings as saved (a provider's
 * failure is shown with its reason), by group name.
 */
const TEST_SENDS: Partial<Record<string, TestSendProps>> = {
  mail: {
    send: { url: "/admin/routine/config/sendTestMail", field: "to", check: (value) => testMailBody.safeParse({ to: value }).success },
    input: { type: "email", icon: Send },
    copy: { invalid: msg`Please enter the correct email address`, label: msg`Send a test email to`, button: msg`Send a test email` },
  },
  sms: {
    send: { url: "/admin/routine/config/sendTestSms", field: "mobile", check: (value) => testSmsBody.safeParse({ mobile: value }).success },
    input: { type: "tel", icon: MessageSquareText },
    copy: { invalid: msg`Please enter the correct mobile number`, label: msg`Send a test text message to`, button: msg`Send a test text message` },
  },
};

/** A test message to an address the admin types, through the settings as saved. */
function TestSend({ send: { url, field, check }, input: { type, icon: Icon }, copy }: TestSendProps) {
  const { t, i18n } = useLingui();
  const [invalid, label, button] = [i18n._(copy.invalid), i18n._(copy.label), i18n._(copy.button)];
  const [to, setTo] = useState("");
  const [error, setError] = useState<string | null>(null);
  // The server's answer stays under the form: "sent"; that without a provider the message only
  // reached the outbox table (a notice, not a success: nothing left the server); or why it failed.
  const [outcome, setOutcome] = useState<{ text: string; tone: "sent" | "outbox" | "failed" } | null>(null);
  const send = useMutation({
    mutationFn: (address: string) => request<{ delivery?: string }>({ url, method: "post", data: { [field]: address } }),
    onMutate: () => setOutcome(null),
    onSuccess: (res) => {
      const outbox = res.data?.delivery === "outbox";
      const text = res.msg || t`Operation successful`;
      setOutcome({ text, tone: outbox ? "outbox" : "sent" });
      if (outbox) toast.message(text);
      else toast.success(text);
    },
    onError: (e) => {
      const refusal = serverRefusal(e);
      if (refusal) setOutcome({ text: refusal.msg, tone: "failed" });
    },
  });
  const toneClass = { sent: "text-slate-600 dark:text-slate-300", outbox: "text-amber-700 dark:text-amber-300", failed: "text-red-700 dark:text-red-300" };
  return (
    <Auth node={actionNode(PATH, "edit")}>
      <form
        noValidate
        className="mt-6 max-w-2xl space-y-2 border-t border-slate-200 pt-4 dark:border-slate-700"
        onSubmit={(e) => {
          e.preventDefault();
          const ok = check(to.trim());
          setError(ok ? null : invalid);
          if (ok) send.mutate(to.trim());
        }}
      >
        <FieldFrame label={label} hint={t`Uses the saved settings: save your changes first`} error={error}>
          {(control) => (
            <div className="flex flex-wrap gap-2">
              <input
                {...control}
                type={type}
                autoComplete={type === "email" ? "email" : "tel"}
                inputMode={type === "tel" ? "tel" : undefined}
                value={to}
                onChange={(e) => setTo(e.target.value)}
                className={`${controlClass(error)} min-w-0 flex-1`}
              />
              <Button type="submit" disabled={send.isPending}>
                {send.isPending ? <Spinner className="size-4" /> : <Icon className="size-4" aria-hidden />}
                {button}
              </Button>
            </div>
          )}
        </FieldFrame>
        <p role="status" className={`text-sm ${toneClass[outcome?.tone ?? "sent"]}`}>
          {outcome?.text}
        </p>
      </form>
    </Auth>
  );
}

/** `POST /admin/ajax/clearCache {type: "all"}` (SPEC §7): the server drops what it caches. */
function ClearCache() {
  const clear = useMutation({
    mutationFn: () => request({ url: "/admin/ajax/clearCache", method: "post", data: { type: "all" } }, { showSuccessMessage: true }),
  });
  return (
    <Button onClick={() => clear.mutate()} disabled={clear.isPending}>
      {clear.isPending ? <Spinner className="size-4" /> : <Eraser className="size-4" aria-hidden />}
      <Trans>Clear cache</Trans>
    </Button>
  );
}
