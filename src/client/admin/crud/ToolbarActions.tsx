import { useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { checkAuth } from "../../routing/auth.tsx";
import { useNavTabs } from "../../stores/navTabs.ts";
import { Button } from "../../ui/Button.tsx";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import { crudKeys } from "./api.ts";
import type { CrudDefinition, CrudToolbarAction } from "./types.ts";

/** The permission node of an action: a full rule path ("exam/question/import") or an action of the screen ("import"). */
function actionNode(path: string, action: string) {
  const rule = action.includes("/") ? action : `${path}/${action}`;
  const base = `/admin/${rule.slice(0, rule.lastIndexOf("/")).replace(/^\/+/, "")}`;
  return { name: base, subNodeName: `/admin/${rule.replace(/^\/+/, "")}` };
}

/** A screen's extra toolbar buttons (those whose rules the admin holds), each opening its dialog; the list reloads after. */
export function ToolbarActions({ definition }: { definition: CrudDefinition }) {
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
