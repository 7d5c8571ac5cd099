import { useLingui } from "@lingui/react/macro";
import { checkAuth } from "../../routing/auth.tsx";
import { useNavTabs } from "../../stores/navTabs.ts";
import { Button } from "../../ui/Button.tsx";
import { DialogFrame } from "../../ui/DialogFrame.tsx";
import type { CrudDefinition, CrudRow, CrudRowAction } from "./types.ts";

/** The permission node of a row action: a full rule path ("user/moneyLog/add") or an action of the screen ("edit"). */
function rowActionNode(path: string, action: string) {
  const rule = action.includes("/") ? action : `${path}/${action}`;
  const base = `/admin/${rule.slice(0, rule.lastIndexOf("/")).replace(/^\/+/, "")}`;
  return { name: base, subNodeName: `/admin/${rule.replace(/^\/+/, "")}` };
}

/** The row actions this admin may use (their rules held). */
export function useRowActions(definition: CrudDefinition): CrudRowAction[] {
  const nodes = useNavTabs((s) => s.authNode);
  return (definition.rowActions ?? []).filter((a) => checkAuth(rowActionNode(definition.path, a.action), nodes, ""));
}

/** A row action's button. */
export function RowActionButton({ action, row, onOpen }: { action: CrudRowAction; row: CrudRow; onOpen: () => void }) {
  const { i18n } = useLingui();
  const Icon = action.icon;
  const label = `${i18n._(action.label)} · ${row.id}`;
  return (
    <Button variant="ghost" size={Icon ? "icon" : "md"} aria-label={label} title={i18n._(action.label)} onClick={onOpen}>
      {Icon ? <Icon aria-hidden className="size-4" /> : <span className="text-sm">{i18n._(action.label)}</span>}
    </Button>
  );
}

/** The dialog of a row action, with its component given the row. */
export function RowActionDialog({ action, row, onClose }: { action: CrudRowAction; row: CrudRow; onClose: () => void }) {
  const { i18n } = useLingui();
  const Component = action.component;
  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} size={action.size ?? "sm"} title={i18n._(action.label)}>
      <Component row={row} onDone={onClose} />
    </DialogFrame>
  );
}
