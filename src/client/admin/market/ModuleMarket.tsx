import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FileUp, Package, Power, PowerOff, Settings, Trash2 } from "lucide-react";
import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Link } from "react-router-dom";
import { MODULE_ZIP, type ModuleRow } from "../../../shared/admin/modules.ts";
import { request } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { FileUploadButton } from "../../ui/FileUploadButton.tsx";
import { DropDataConfirm } from "../DropDataConfirm.tsx";
import { UploadFailure } from "../UploadFailure.tsx";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { useDirtyForm, useGuardedClose } from "../../ui/discardGuard.tsx";
import { FormFooter } from "../../ui/FormFooter.tsx";
import { Field } from "../../ui/form/Field.tsx";
import { reloadAdminMenus } from "../session.ts";
import { MENU_ICONS } from "../menuIcons.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";
import { Fact } from "../../ui/Fact.tsx";
import { PageHeader } from "../../ui/PageTitle.tsx";

/**
 * The module market (`moduleStore/moduleStore`, super admins only): the bundled modules and
 * those of the catalogue folder, each with what it needs and its tables; install (with or
 * without its demo rows), enable, disable, settings, uninstall (its tables kept unless dropping
 * them is confirmed), and "upload a module zip" into the catalogue.
 */

const KEY = ["admin", "market", "modules"] as const;

const badge = "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium";

function toBase64(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

export default function ModuleMarket() {
  const { t, i18n } = useLingui();
  const client = useQueryClient();
  const [removing, setRemoving] = useState<ModuleRow | null>(null);
  const [dropData, setDropData] = useState(false);
  const [configuring, setConfiguring] = useState<ModuleRow | null>(null);
  const en = i18n.locale === "en";
  const titleOf = (m: { title: string; titleEn: string }) => (en && m.titleEn ? m.titleEn : m.title);

  const modules = useQuery({
    queryKey: KEY,
    queryFn: async ({ signal }) => (await request<{ list: ModuleRow[]; dir: string }>({ url: "/admin/moduleStore/moduleStore/index", method: "get", signal })).data,
  });
  const changed = async () => {
    await client.invalidateQueries({ queryKey: KEY });
    await client.invalidateQueries({ queryKey: ["admin", "mod"] });
    await reloadAdminMenus();
  };
  const act = useMutation({
    mutationFn: ({ action, data }: { action: string; data: Record<string, unknown> }) =>
      request({ url: `/admin/moduleStore/moduleStore/${action}`, method: "post", data }, { showSuccessMessage: true }),
    onSuccess: changed,
  });
  const upload = useMutation({
    mutationFn: async (file: File) => {
      if (file.size > MODULE_ZIP.maxBytes) throw new Error(t`The module zip is too large (at most 2 MB)`);
      const data = toBase64(await file.arrayBuffer());
      return request({ url: "/admin/moduleStore/moduleStore/upload", method: "post", data: { name: file.name, data } }, { showSuccessMessage: true });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
  const busy = act.isPending;
  const removingTitle = removing ? titleOf(removing) : "";
  const removingTables = removing?.tables.map((x) => x.table).join(", ") ?? "";

  return (
    <section className="space-y-4" aria-labelledby="market-title">
      <PageHeader id="market-title" title={<Trans>Module market</Trans>}>
        <FileUploadButton variant="primary" disabled={upload.isPending} accept="application/zip,.zip" inputLabel={t`Module zip`} onFiles={([file]) => upload.mutate(file!)}>
          <FileUp className="size-4" aria-hidden />
          <Trans>Upload a module zip</Trans>
        </FileUploadButton>
      </PageHeader>
      <UploadFailure error={upload.error} />
      <p className="text-sm text-slate-600 dark:text-slate-400">
        <Trans>A module adds tables, back-office screens and what members see, all from its definitions. Its tables get the prefix mod_ and its own name.</Trans>
      </p>
      {modules.isPending ? (
        <PageSpinner />
      ) : modules.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          <Trans>The modules could not be loaded.</Trans>
        </p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" aria-label={t`Modules`}>
          {modules.data.list.map((m) => {
            const Icon = MENU_ICONS[m.icon] ?? Package;
            const title = titleOf(m);
            const description = en && m.descriptionEn ? m.descriptionEn : m.description;
            const app = m.requires.app;
            const needs = [app ? t`ExamHub ${app} or later` : "", ...m.requires.modules].filter(Boolean).join(", ");
            return (
              <li key={m.name} data-module={m.name} className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
                <div className="flex items-start gap-3">
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary dark:text-blue-300">
                    <Icon className="size-5" aria-hidden />
                  </span>
                  <div className="min-w-0 flex-1">
                    <h2 className="flex flex-wrap items-center gap-2 font-semibold">
                      {title}
                      <span className="font-mono text-xs font-normal text-slate-500 dark:text-slate-400">
                        {m.name} {m.installedVersion ?? m.version}
                      </span>
                      {m.status === "enabled" ? (
                        <span className={`${badge} bg-green-100 text-green-800 dark:bg-green-900 dark:text-green-200`}>
                          <Trans context="module status">Enabled</Trans>
                        </span>
                      ) : m.status === "disabled" ? (
                        <span className={`${badge} bg-amber-100 text-amber-800 dark:bg-amber-900 dark:text-amber-200`}>
                          <Trans context="module status">Disabled</Trans>
                        </span>
                      ) : (
                        <span className={`${badge} bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200`}>
                          <Trans context="module status">Not installed</Trans>
                        </span>
                      )}
                    </h2>
                    <p className="text-sm text-slate-600 dark:text-slate-300">{description}</p>
                  </div>
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <Fact tone="muted" label={<Trans>Author</Trans>}>
                    {m.author}
                  </Fact>
                  <Fact tone="muted" label={<Trans>Source</Trans>}>
                    {m.source === "bundled" ? <Trans>Bundled with the app</Trans> : m.source === "catalogue" ? <Trans>Catalogue folder</Trans> : <Trans>Installed (package removed)</Trans>}
                  </Fact>
                  <Fact tone="muted" label={<Trans>Needs</Trans>}>
                    {needs || <Trans>Nothing else</Trans>}
                  </Fact>
                  <Fact tone="muted" label={<Trans>Tables</Trans>} className="flex flex-wrap gap-x-3">
                    {m.tables.map((x) =>
                      m.status === "enabled" ? (
                        <Link key={x.name} className="text-primary underline" to={`/admin/mod/${m.name}/${x.name}`}>
                          {titleOf(x)}
                        </Link>
                      ) : (
                        <span key={x.name}>{titleOf(x)}</span>
                      ),
                    )}
                    <span className="font-mono text-xs text-slate-500">{m.tables.map((x) => x.table).join(", ")}</span>
                  </Fact>
                </dl>
                <div className="mt-auto flex flex-wrap gap-2">
                  {m.status === "available" ? (
                    <>
                      <Button variant="primary" disabled={busy} onClick={() => act.mutate({ action: "install", data: { name: m.name } })}>
                        <Trans>Install</Trans>
                      </Button>
                      {m.hasDemo && (
                        <Button disabled={busy} onClick={() => act.mutate({ action: "install", data: { name: m.name, demo: true } })}>
                          <Trans>Install with demo data</Trans>
                        </Button>
                      )}
                    </>
                  ) : (
                    <>
                      {m.status === "enabled" ? (
                        <Button disabled={busy} onClick={() => act.mutate({ action: "disable", data: { name: m.name } })}>
                          <PowerOff className="size-4" aria-hidden />
                          <Trans>Disable</Trans>
                        </Button>
                      ) : (
                        <Button variant="primary" disabled={busy} onClick={() => act.mutate({ action: "enable", data: { name: m.name } })}>
                          <Power className="size-4" aria-hidden />
                          <Trans>Enable</Trans>
                        </Button>
                      )}
                      {m.settings.length > 0 && (
                        <Button disabled={busy} onClick={() => setConfiguring(m)}>
                          <Settings className="size-4" aria-hidden />
                          <Trans>Settings</Trans>
                        </Button>
                      )}
                      <Button
                        variant="ghost"
                        disabled={busy}
                        onClick={() => {
                          setDropData(false);
                          setRemoving(m);
                        }}
                      >
                        <Trash2 className="size-4" aria-hidden />
                        <Trans>Uninstall</Trans>
                      </Button>
                    </>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {modules.data && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          <Trans>Catalogue folder:</Trans> <span className="font-mono">{modules.data.dir}</span>
        </p>
      )}
      <DropDataConfirm
        open={removing !== null}
        onCancel={() => setRemoving(null)}
        title={<Trans>Uninstall {removingTitle}?</Trans>}
        notice={<Trans>Its menus and screens are removed. Its tables ({removingTables}) and their rows are kept unless you choose to drop them.</Trans>}
        dropLabel={<Trans>Also drop its tables and all their rows</Trans>}
        drop={dropData}
        onDropChange={setDropData}
        confirmLabel={<Trans>Uninstall</Trans>}
        busy={act.isPending}
        onConfirm={() => removing && act.mutate({ action: "uninstall", data: { name: removing.name, dropData } }, { onSuccess: () => setRemoving(null) })}
      />
      {configuring && <SettingsDialog module={configuring} onClose={() => setConfiguring(null)} onSaved={changed} />}
    </section>
  );
}

/**
 * A module's settings as typed: each a whole number within the bounds its manifest gives, refused
 * in the server's words. The inputs keep their own bounds too, so a browser says so first.
 */
function settingsForm(module: ModuleRow, i18n: I18n) {
  return z.object(
    Object.fromEntries(
      module.settings.map(({ key, min, max }) => {
        const message = i18n._(msg`The setting "${key}" must be between ${min} and ${max}`);
        return [key, z.string().trim().min(1, message).pipe(z.coerce.number<string>().int(message).min(min, message).max(max, message))];
      }),
    ),
  );
}

function SettingsDialog({ module, onClose, onSaved }: { module: ModuleRow; onClose: () => void; onSaved: () => Promise<void> }) {
  const { i18n } = useLingui();
  const title = i18n.locale === "en" && module.titleEn ? module.titleEn : module.title;
  return (
    <DialogFrame open onOpenChange={(o) => !o && onClose()} title={<Trans>Settings of {title}</Trans>}>
      <SettingsForm module={module} onClose={onClose} onSaved={onSaved} />
    </DialogFrame>
  );
}

/** Inside the dialog, so its unsaved changes make closing the dialog ask first. */
function SettingsForm({ module, onClose, onSaved }: { module: ModuleRow; onClose: () => void; onSaved: () => Promise<void> }) {
  const { i18n } = useLingui();
  const schema = useMemo(() => settingsForm(module, i18n), [module, i18n]);
  const form = useForm<Record<string, string>, unknown, Record<string, number>>({
    defaultValues: Object.fromEntries(Object.entries(module.values).map(([k, v]) => [k, String(v)])),
    resolver: zodResolver(schema),
  });
  useDirtyForm(form.formState.isDirty);
  const cancel = useGuardedClose(onClose);
  const save = useMutation({
    mutationFn: (values: Record<string, number>) =>
      request({ url: "/admin/moduleStore/moduleStore/settings", method: "post", data: { name: module.name, values } }, { showSuccessMessage: true }),
    onSuccess: async () => {
      await onSaved();
      onClose();
    },
  });
  return (
    <form className="space-y-4" onSubmit={(e) => void form.handleSubmit((values) => save.mutate(values))(e)}>
      {module.settings.map((s) => (
        <Field
          key={s.key}
          label={i18n.locale === "en" && s.titleEn ? s.titleEn : s.title}
          type="number"
          min={s.min}
          max={s.max}
          step={1}
          required
          {...form.register(s.key)}
          error={form.formState.errors[s.key]?.message}
        />
      ))}
      <FormFooter busy={save.isPending} onCancel={cancel} />
    </form>
  );
}
