import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { CloudDownload } from "lucide-react";
import { saveDownloadedBank, storedBanks, type MemberDb } from "../../offline/index.ts";
import { useOnline } from "../../browser/useOnline.ts";
import { Button } from "../../ui/Button.tsx";
import { Spinner } from "../../ui/Spinner.tsx";
import { downloadBank } from "./bankDownload.ts";
import { fetchDueList } from "./reviewApi.ts";

/**
 * Due reviews whose bank is not saved on this device (the menu's badge counts them, the device
 * cannot show their questions): says so and saves those banks. Which banks they are only the
 * server knows (the device holds no question of theirs), so saving needs to be online.
 */
export function SaveDueBanks({ db, count, className = "" }: { db: MemberDb; count: number; className?: string }) {
  const { t } = useLingui();
  const online = useOnline();
  const [state, setState] = useState<"idle" | "saving" | "failed">("idle");
  async function save() {
    setState("saving");
    try {
      const { due } = await fetchDueList();
      const bankIds = [...new Set(due.map((card) => card.bankId))];
      const stored = await storedBanks(db, bankIds);
      const missing = bankIds.filter((_, i) => !stored[i]);
      for (const bankId of missing) await saveDownloadedBank(db, await downloadBank(bankId));
      // The queue re-reads itself from the device once the banks are there; nothing missing: a sync will tell.
      setState("idle");
    } catch {
      setState("failed");
    }
  }
  return (
    <div className={`flex flex-wrap items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200 ${className}`}>
      <p className="min-w-0 flex-1 basis-52">
        {t`${plural(count, { one: "# due question is in a bank not saved on this device.", other: "# due questions are in banks not saved on this device." })}`}
        {!online && ` ${t`Go online to save it here.`}`}
        {state === "failed" && <span className="block text-red-700 dark:text-red-300">{t`The bank could not be downloaded. Try again when online.`}</span>}
      </p>
      {online && (
        <Button size="sm" disabled={state === "saving"} onClick={() => void save()}>
          {state === "saving" ? <Spinner className="size-4" /> : <CloudDownload aria-hidden className="size-4" />}
          <Trans>Save on this device</Trans>
        </Button>
      )}
    </div>
  );
}
