import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Tabs } from "radix-ui";
import { Select } from "../../ui/Select.tsx";
import { Eraser, Send } from "lucide-react";
import { useState } from "react";
import { useForm, type FieldValues, type Resolver } from "react-hook-form";
import { CONFIG_GROUPS, CONFIG_KEYS, configValues, testMailBody, type ConfigGroup, type ConfigValues, type ConfigView } from "../../../shared/admin/routine.ts";
import { request, serverRefusal } from "../../api/index.ts";
import { Auth, useAuth } from "../../routing/auth.tsx";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { Button } from "../../ui/Button.tsx";
import { controlClass, FieldFrame } from "../../ui/form/Field.tsx";
import { ControlledField } from "../../ui/form/ControlledField.tsx";
import { Switch } from "../../ui/Switch.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { actionNode } from "../crud/CrudScreen.tsx";
import { fieldErrorsOf } from "../crud/api.ts";
import type { FormFieldKind } from "../crud/types.ts";
import { FormFooter, FormAlert } from "../../ui/FormFooter.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { LoadRetry } from "../../ui/LoadRetry.tsx";
import { useDirtyForm } from "../../ui/discardGuard.tsx";

/**
 * The config screen (`routine/config`): the site settings by group, each group a form of the
 * engine's field kinds checked with the shared schema (src/shared/admin/routine.ts) and saved
 * on its own; changes apply on the server at once. The mail password is write-only.
 */

const PATH = "routine/config";
const KEY = ["admin", "routine", "config"] as const;

type Kind = Extract<FormFieldKind, "text" | "number" | "switch" | "select" | "password">;
interface Field {
  key: keyof ConfigValues;
  label: MessageDescriptor;
  kind: Kind;
  hint?: MessageDescriptor;
  options?: { value: string; label: MessageDescriptor }[];
}

const GROUP_TITLES: Record<ConfigGroup, MessageDescriptor> = { basic: msg`Basic`, upload: msg`Upload`, login: msg`Login`, mail: msg`Mail` };

const FIELDS: Record<ConfigGroup, Field[]> = {
  basic: [
    { key: "site_name", label: msg`Site name`, kind: "text", hint: msg`Shown in page titles and the login page` },
    { key: "record_number", label: msg`Record number`, kind: "text", hint: msg`The ICP record number shown at the foot of the site; leave empty for none` },
  ],
  upload: [
    { key: "upload_mode", label: msg`Storage`, kind: "select", options: [{ value: "local", label: msg`This server (local)` }] },
    { key: "upload_maxsize", label: msg`Largest file`, kind: "text", hint: msg`Such as 10mb, 512kb or 1gb` },
    { key: "upload_mimetype", label: msg`Allowed file types`, kind: "text", hint: msg`Extensions or MIME types separated by commas (jpg,png,image/*), or * for all` },
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
};

export default function ConfigScreen() {
  const { t, i18n } = useLingui();
  const [tab, setTab] = useState<ConfigGroup>("basic");
  const config = useQuery({
    queryKey: KEY,
    queryFn: async ({ signal }) => (await request<{ config: ConfigView }>({ url: "/admin/routine/config/index", method: "get", signal })).data.config,
  });
  return (
    <section className="space-y-4" aria-labelledby="config-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 id="config-title" className="text-xl font-semibold">
          <Trans>Config</Trans>
        </h1>
        <Auth node={actionNode(PATH, "edit")}>
          <ClearCache />
        </Auth>
      </div>
      {config.isError ? (
        <LoadRetry className="space-y-3 py-10 text-center" message={<Trans>The settings could not be loaded.</Trans>} onRetry={() => void config.refetch()} />
      ) : !config.data ? (
        <PageSpinner className="my-10" />
      ) : (
        <Tabs.Root value={tab} onValueChange={(group) => setTab(group as ConfigGroup)} className="rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900">
          <Tabs.List aria-label={t`Settings groups`} className="flex overflow-x-auto border-b border-slate-200 dark:border-slate-700">
            {CONFIG_GROUPS.map((group) => (
              <Tabs.Trigger
                key={group}
                value={group}
                className="min-h-11 shrink-0 border-b-2 border-transparent px-4 text-slate-600 outline-none hover:text-primary focus-visible:ring-2 focus-visible:ring-primary data-[state=active]:border-primary data-[state=active]:font-medium data-[state=active]:text-primary dark:text-slate-300"
              >
                {i18n._(GROUP_TITLES[group])}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {/* Every group's form stays mounted (the others hidden), so switching tabs keeps what was typed in each. */}
          {CONFIG_GROUPS.map((group) => (
            <Tabs.Content key={group} value={group} forceMount hidden={group !== tab} className="p-4 outline-none sm:p-6">
              <GroupForm group={group} view={config.data} />
              {group === "mail" && <TestMail />}
            </Tabs.Content>
          ))}
        </Tabs.Root>
      )}
    </section>
  );
}

function GroupForm({ group, view }: { group: ConfigGroup; view: ConfigView }) {
  const { t, i18n } = useLingui();
  const client = useQueryClient();
  const canEdit = useAuth(actionNode(PATH, "edit"));
  const fields = FIELDS[group];
  const keys = CONFIG_KEYS[group];
  const schema = configValues.pick(Object.fromEntries(keys.map((k) => [k, true])) as Record<keyof ConfigValues, true>);
  const defaultValues = Object.fromEntries(keys.map((k) => [k, k === "mail_password" ? "" : view[k as keyof ConfigView]]));
  const form = useForm<FieldValues>({ defaultValues, resolver: zodResolver(schema as never) as unknown as Resolver<FieldValues> });
  const [formError, setFormError] = useState<string | null>(null);
  useDirtyForm(form.formState.isDirty);
  const save = useMutation({
    mutationFn: (values: FieldValues) => request({ url: "/admin/routine/config/edit", method: "post", data: values }, { showSuccessMessage: true, showCodeMessage: false }),
  });

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const body = { ...values };
    if (body.mail_password === "") delete body.mail_password;
    try {
      await save.mutateAsync(body);
      // The app's own copy of the site config follows at once (upload checks, page titles).
      const site = useSiteConfig.getState();
      if (group === "basic") site.dataFill({ siteName: String(values.site_name), recordNumber: String(values.record_number) });
      if (group === "upload") site.dataFill({ upload: { ...site.upload, mode: String(values.upload_mode), maxsize: String(values.upload_maxsize), mimetype: String(values.upload_mimetype) } });
      form.reset({ ...values, ...(group === "mail" ? { mail_password: "" } : {}) });
      await client.invalidateQueries({ queryKey: KEY });
    } catch (error) {
      const refusal = serverRefusal(error);
      if (!refusal) return;
      const byField = Object.entries(fieldErrorsOf(refusal.data) ?? {}).filter(([name]) => (keys as readonly string[]).includes(name));
      for (const [name, message] of byField) form.setError(name, { type: "server", message }, { shouldFocus: true });
      if (byField.length === 0) setFormError(refusal.msg);
    }
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="max-w-2xl space-y-4" aria-label={i18n._(GROUP_TITLES[group])}>
      {fields.map((field) => {
        return (
          <ControlledField key={field.key} form={form} name={field.key} label={i18n._(field.label)} hint={field.hint ? i18n._(field.hint) : undefined}>
            {(control, f, error) => {
              switch (field.kind) {
                case "switch":
                  return <Switch control={control} ref={f.ref} checked={f.value === true} disabled={!canEdit} onToggle={() => f.onChange(!f.value)} />;
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
                      options={(field.options ?? []).map((o) => ({ value: o.value, label: i18n._(o.label) }))}
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
                      placeholder={field.kind === "password" ? (view.mail_password_set ? t`Set: leave empty to keep it` : t`Not set`) : undefined}
                      className={controlClass(error)}
                    />
                  );
              }
            }}
          </ControlledField>
        );
      })}
      <FormAlert text={formError} />
      <Auth node={actionNode(PATH, "edit")}>
        <FormFooter busy={form.formState.isSubmitting} />
      </Auth>
    </form>
  );
}

/** Sends a test email through the mail settings as saved. */
function TestMail() {
  const { t } = useLingui();
  const [to, setTo] = useState("");
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (address: string) => request({ url: "/admin/routine/config/sendTestMail", method: "post", data: { to: address } }, { showSuccessMessage: true }),
  });
  return (
    <Auth node={actionNode(PATH, "edit")}>
      <form
        noValidate
        className="mt-6 max-w-2xl space-y-2 border-t border-slate-200 pt-4 dark:border-slate-700"
        onSubmit={(e) => {
          e.preventDefault();
          const ok = testMailBody.safeParse({ to: to.trim() }).success;
          setError(ok ? null : t`Please enter the correct email address`);
          if (ok) send.mutate(to.trim());
        }}
      >
        <FieldFrame label={t`Send a test email to`} hint={t`Uses the saved settings: save your changes first`} error={error}>
          {(control) => (
            <div className="flex flex-wrap gap-2">
              <input {...control} type="email" autoComplete="email" value={to} onChange={(e) => setTo(e.target.value)} className={`${controlClass(error)} min-w-0 flex-1`} />
              <Button type="submit" disabled={send.isPending}>
                {send.isPending ? <Spinner className="size-4" /> : <Send className="size-4" aria-hidden />}
                <Trans>Send a test email</Trans>
              </Button>
            </div>
          )}
        </FieldFrame>
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
