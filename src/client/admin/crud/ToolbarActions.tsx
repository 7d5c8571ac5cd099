import { useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ChevronDown, Download } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { useState } from "react";
import { checkAuth } from "../../routing/auth.tsx";
import { useNavTabs } from "../../stores/navTabs.ts";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { crudKeys, downloadExport, type ExportFormat, type ListQuery } from "./api.ts";
import type { CrudDefinition, CrudToolbarAction } from "./types.ts";

/** The permission node of an action: a full rule path ("exam/question/import") or an action of the screen ("import"). */
function actionNode(path: string, action: string) {
  const rule = action.includes("/") ? action : `${path}/${action}`;
  const base = `/admin/${rule.slice(0, rule.lastIndexOf("/")).replace(/^\/+/, "")}`;
  return { name: base, subNodeName: `/admin/${rule.replace(/^\/+/, "")}` };
}

const itemClass = "flex min-h-10 cursor-pointer items-center rounded px-3 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800";

/**
 * "Export" (a menu: CSV, Excel): the list as its search, quick search and order show it, every
 * page, downloaded as a file (`GET exportList`, the list's own rule and company scope).
 */
function ExportMenu({ path, query }: { path: string; query: ListQuery }) {
  const { t } = useLingui();
  const download = useMutation({ mutationFn: (format: ExportFormat) => downloadExport(path, query, format) });
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className={buttonClass("secondary")} disabled={download.isPending} aria-busy={download.isPending || undefined}>
        {download.isPending ? <Spinner className="size-4" /> : <Download aria-hidden className="size-4" />}
        {t`Export`}
        <ChevronDown aria-hidden className="size-4" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="start" sideOffset={4} className="z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100">
          <DropdownMenu.Item className={itemClass} onSelect={() => download.mutate("csv")}>
            {t`Export as .csv`}
          </DropdownMenu.Item>
          <DropdownMenu.Item className={itemClass} onSelect={() => download.mutate("xlsx")}>
            {t`Export as .xlsx`}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * A screen's extra toolbar buttons (those whose rules the admin holds), each opening its dialog
 * (the list reloads after), and the export of the list as `query` shows it.
 */
export function ToolbarActions({ definition, query }: { definition: CrudDefinition; query: ListQuery }) {
  const { i18n } = useLingui();
  const nodes = useNavTabs((s) => s.authNode);
  const client = useQueryClient();
  const [open, setOpen] = useState<CrudToolbarAction | null>(null);
  const actions = (definition.toolbarActions ?? []).filter((a) => checkAuth(actionNode(definition.path, a.action), nodes, ""));
  const close = () => {
    setOpen(null);
    void client.invalidateQueries({ queryKey: crudKeys.all(definition.path) });
  };
  const Component = open?.component;
  return (
    <>
      <ExportMenu path={definition.path} query={query} />
      {actions.map((action) => {
        const Icon = action.icon;
        return (
          <Button key={action.key} onClick={() => setOpen(action)}>
            {Icon && <Icon aria-hidden className="size-4" />}
            {i18n._(action.label)}
          </Button>
        );
      })}
      {open && Component && (
        <DialogFrame open onOpenChange={(o) => !o && close()} size={open.size ?? "sm"} title={i18n._(open.label)}>
          <Component onDone={close} />
        </DialogFrame>
      )}
    </>
  );
}
