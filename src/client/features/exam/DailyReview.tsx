import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { BrainCircuit } from "lucide-react";
import { Link } from "react-router-dom";
import { useReviewSummary } from "../../offline/index.ts";
import { useOfflineDb } from "../../offline/index.ts";
import { minutesOf } from "./reviewApi.ts";
import { useMinuteClock } from "./useMinuteClock.ts";
import { buttonClass } from "../../ui/Button.tsx";
import { SaveDueBanks } from "./SaveDueBanks.tsx";

/**
 * The daily review entry of the member's home: how many wrong-book and favourite questions are
 * due today across banks and about how long they take, read from the device (works offline);
 * due ones in banks not saved here (the menu's badge counts them) with the button that saves them.
 */
export function DailyReview() {
  const { t } = useLingui();
  const db = useOfflineDb() ?? undefined;
  const now = useMinuteClock();
  // Its figures only (not a live query: read each minute and when the home opens).
  const queue = useReviewSummary(db, now);
  if (!db || !queue || queue.queued === 0) return null;
  const due = queue.due;
  return (
    <section aria-labelledby="daily-review" className="flex flex-wrap items-center gap-3 rounded-xl border border-blue-200 bg-blue-50 p-4 dark:border-slate-700 dark:bg-slate-900">
      <BrainCircuit aria-hidden className="size-8 shrink-0 text-primary" />
      <div className="min-w-0 flex-1 basis-48">
        <h2 id="daily-review" className="font-semibold">
          <Trans>Daily review</Trans>
        </h2>
        {/* The menu's badge counts due reviews in banks not saved here too: the card says where they are. */}
        {(due > 0 || queue.dueElsewhere === 0) && (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {due > 0
              ? t`${plural(due, { one: "# question is due today", other: "# questions are due today" })}, about ${plural(minutesOf(queue.estimateSeconds), { one: "# minute", other: "# minutes" })}.`
              : t`Nothing is due today. Well done!`}
          </p>
        )}
        {queue.dueElsewhere > 0 && <SaveDueBanks db={db} count={queue.dueElsewhere} className="mt-2" />}
      </div>
      {due > 0 && (
        <Link to="/exam/examTab/review" className={buttonClass("primary", "w-full sm:w-auto")}>
          <Trans>Start today's review</Trans>
        </Link>
      )}
    </section>
  );
}
