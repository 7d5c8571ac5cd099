import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { CloudUpload } from "lucide-react";
import { formatTime } from "../../../shared/time.ts";
import { pendingActions, pendingChangeCount, syncNow, useOfflineQuery, useSyncStatus } from "../../offline/index.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { Button } from "../../ui/Button.tsx";
import { OP_LABELS } from "./RejectedChanges.tsx";
import { SyncPopover } from "./SyncPopover.tsx";

const NONE = { total: 0, actions: [] };

/** What is waiting, by kind: read only while the panel is open (a heavy queue holds thousands of ops). */
function WaitingList() {
  const { t, i18n } = useLingui();
  const { actions } = useOfflineQuery((d) => pendingActions(d), [], NONE);
  return (
    <ul className="max-h-72 space-y-1 overflow-y-auto" aria-label={t`Waiting to sync`}>
      {actions.map((a) => {
        const latest = formatTime(a.at, "MM-DD HH:mm");
        return (
          <li key={a.kind} className="flex items-baseline justify-between gap-2 rounded border border-slate-200 px-2 py-1.5 dark:border-slate-700">
            <span className="font-medium">
              {i18n._(OP_LABELS[a.kind])} × {a.count}
            </span>
            <span className="text-xs text-slate-500 dark:text-slate-400">{t`latest ${latest}`}</span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The member's changes waiting to sync, counted as the member made them (an answer is one, not
 * the three records it makes on this device), while there are any. A tap lists what is waiting,
 * by kind and when, and the last sync error; online, the member may sync at once.
 */
export function PendingChanges() {
  const { t } = useLingui();
  const online = useOnline();
  const { state, lastError } = useSyncStatus();
  // Counted from the outbox's indexes; the list itself is read when the panel opens.
  const pending = useOfflineQuery((d) => pendingChangeCount(d), [], 0);
  if (pending === 0) return null;
  const errorAt = lastError ? formatTime(lastError.at, "MM-DD HH:mm") : "";
  const reason = lastError?.msg ?? "";
  const errorText = lastError ? t`Last sync error (${errorAt}): ${reason}` : null;
  const label = t`${plural(pending, { one: "# change waiting to sync", other: "# changes waiting to sync" })}`;
  return (
    <SyncPopover
      label={label}
      short={t`${pending} to sync`}
      icon={CloudUpload}
      tone="amber"
      title={t`Changes waiting to sync`}
      intro={
        online ? (
          <Trans>These changes are saved on this device and will be sent to the server shortly.</Trans>
        ) : (
          <Trans>These changes are saved on this device and will be sent when you are back online.</Trans>
        )
      }
    >
      <WaitingList />
      {errorText && (
        <p role="status" className="mt-2 rounded bg-red-50 p-2 text-xs text-red-800 dark:bg-red-950/40 dark:text-red-300">
          {errorText}
        </p>
      )}
      {online && (
        <Button size="sm" className="mt-2 w-full" disabled={state === "syncing"} onClick={() => void syncNow()}>
          <Trans>Sync now</Trans>
        </Button>
      )}
    </SyncPopover>
  );
}
