import { useLingui } from "@lingui/react/macro";
import { plural } from "@lingui/core/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { request } from "../../api/index.ts";
import { Auth } from "../../routing/auth.tsx";
import { Button } from "../../ui/Button.tsx";
import { ConfirmDialog } from "../../ui/ConfirmDialog.tsx";
import { crudUrl } from "./api.ts";
import { actionNode } from "./CrudScreen.tsx";
import type { CrudBatchAction } from "./types.ts";

/**
 * The toolbar buttons of a definition's batch actions (e.g. the recycle bin's "Restore"): each
 * asks first, then sends `POST /admin/<path>/<name> {ids}` with the selected rows; shown only to
 * admins whose rules contain `<path>/<name>`.
 */
export function BatchActions({ path, actions, ids, onDone }: { path: string; actions: readonly CrudBatchAction[]; ids: number[]; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const client = useQueryClient();
  const [asking, setAsking] = useState<CrudBatchAction | null>(null);
  const run = useMutation({
    mutationFn: ({ action, ids }: { action: CrudBatchAction; ids: number[] }) => request({ url: crudUrl(path, action.name), method: "post", data: { ids } }, { showSuccessMessage: true }),
    onSuccess: async () => {
      onDone();
      // A batch action may change other screens' rows too (a restore puts members back): every list is fetched again.
      await client.invalidateQueries({ queryKey: ["crud"] });
    },
  });
  const count = ids.length;
  return (
    <>
      {actions.map((action) => (
        <Auth key={action.name} node={actionNode(path, action.name)}>
          <Button disabled={count === 0 || run.isPending} onClick={() => setAsking(action)}>
            {action.icon}
            {i18n._(action.label)}
          </Button>
        </Auth>
      ))}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        title={asking ? i18n._(asking.label) : ""}
        description={asking ? `${i18n._(asking.confirm)} (${t`${plural(count, { one: "# row", other: "# rows" })}`})` : ""}
        confirmLabel={asking ? i18n._(asking.label) : ""}
        busy={run.isPending}
        onConfirm={() => {
          if (asking) run.mutate({ action: asking, ids }, { onSettled: () => setAsking(null) });
        }}
      />
    </>
  );
}
