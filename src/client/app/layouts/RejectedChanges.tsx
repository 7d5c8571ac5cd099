import type { MessageDescriptor } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { TriangleAlert } from "lucide-react";
import type { OpType } from "../../../shared/sync/ops.ts";
import { formatTime } from "../../../shared/time.ts";
import { discardRejected, rejectedOps, retrySetAside, syncNow, useOfflineDb, useOfflineQuery, type OutboxRow } from "../../offline/index.ts";
import { Button } from "../../ui/Button.tsx";
import { SyncPopover } from "./SyncPopover.tsx";

export const OP_LABELS: Record<OpType, MessageDescriptor> = {
  "practice.answer": msg`Practice answer`,
  "favourite.set": msg`Favourite question`,
  "wrong.remove": msg`Removal from the wrong-question book`,
  "progress.set": msg`Practice progress`,
  "attempt.submit": msg`Mock exam`,
  "official.answer": msg`Official exam answer`,
  "official.leave": msg`Leaving the page during an official exam`,
  "lesson.progress": msg`Lesson progress`,
  "review.answer": msg`Review answer`,
  "review.retention": msg`Desired retention`,
};

const EMPTY: OutboxRow[] = [];

/**
 * Changes the server refused (e.g. a question that was deleted meanwhile): they are never sent
 * again, and stay on this device, listed here, until the member dismisses them. Changes the
 * device set aside because the server kept failing on them are listed too, with the failure,
 * and the member may send them again.
 */
export function RejectedChanges() {
  const { t, i18n } = useLingui();
  const db = useOfflineDb();
  const rows = useOfflineQuery((d) => rejectedOps(d), [], EMPTY);
  if (rows.length === 0) return null;
  const count = rows.length;
  const dismiss = (ids: string[]) => {
    if (!db) return;
    void Promise.all(ids.map((id) => discardRejected(db, id)));
  };
  const sendAgain = (id: string) => {
    if (!db) return;
    void retrySetAside(db, id).then(() => syncNow());
  };
  return (
    <SyncPopover
      label={t`${plural(count, { one: "# change not accepted by the server", other: "# changes not accepted by the server" })}`}
      short={count}
      icon={TriangleAlert}
      tone="red"
      title={t`Changes the server did not accept`}
      intro={<Trans>The server did not accept these changes made on this device. They will not be sent again; dismiss them once you have read why.</Trans>}
    >
      <ul className="max-h-72 space-y-2 overflow-y-auto">
        {rows.map((row) => (
          <li key={row.id} className="flex items-start justify-between gap-2 rounded border border-slate-200 p-2 dark:border-slate-700">
            <div>
              <p className="font-medium">{OP_LABELS[row.type] ? i18n._(OP_LABELS[row.type]) : row.type}</p>
              <p className="text-xs text-slate-500 dark:text-slate-400">{formatTime(row.at)}</p>
              {row.setAside ? (
                <p className="text-xs text-red-800 dark:text-red-300">
                  <SetAsideReason reason={row.msg ?? ""} />
                </p>
              ) : row.msg ? (
                <p className="text-xs text-red-800 dark:text-red-300"><RejectionReason reason={row.msg} /></p>
              ) : null}
            </div>
            <div className="flex shrink-0 flex-col gap-1">
              {row.setAside ? (
                <Button size="sm" onClick={() => sendAgain(row.id)}>
                  <Trans>Send again</Trans>
                </Button>
              ) : null}
              <Button size="sm" onClick={() => dismiss([row.id])}>
                <Trans>Dismiss</Trans>
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {count > 1 ? (
        <Button size="sm" onClick={() => dismiss(rows.map((r) => r.id))} className="mt-2 w-full">
          <Trans>Dismiss all</Trans>
        </Button>
      ) : null}
    </SyncPopover>
  );
}

/** Why a change was set aside, in the reader's language (the server's reason inside). */
function SetAsideReason({ reason }: { reason: string }) {
  return <Trans>Set aside: the server kept failing on this change ({reason}), so the rest was synced without it.</Trans>;
}

function RejectionReason({ reason }: { reason: string }) {
  return <Trans>Reason: {reason}</Trans>;
}
