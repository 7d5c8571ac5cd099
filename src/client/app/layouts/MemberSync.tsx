import { useEffect } from "react";
import { flushLegacyOfficialAttempts } from "../../features/exam/official.ts";
import { useMinuteClock } from "../../features/exam/useMinuteClock.ts";
import { dueReviewCount, ensureOffline, useOfflineQuery } from "../../offline/index.ts";
import { publishDueReviews } from "../../offline/index.ts";
import { watchPushPermission } from "../../pwa/push.ts";
import { PendingChanges } from "./PendingChanges.tsx";
import { RejectedChanges } from "./RejectedChanges.tsx";

/**
 * Reviews due now, read from the device: published for the badge beside "Exams"
 * (MainLinks), and the app icon's badge where the Badging API exists (cleared at zero).
 */
function useDueReviewsWatch(): void {
  const now = useMinuteClock();
  const due = useOfflineQuery((db) => dueReviewCount(db, now), [now], 0);
  useEffect(() => {
    publishDueReviews(due);
    const nav = navigator as Navigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
    if (due > 0) void nav.setAppBadge?.(due).catch(() => undefined);
    else void nav.clearAppBadge?.().catch(() => undefined);
  }, [due]);
  useEffect(() => () => publishDueReviews(0), []);
}

/**
 * The signed-in member's side of the header: opens their offline database and starts its sync
 * engine (closed again on logout), sends what an older version left unsent, counts the reviews
 * due and shows the changes waiting to sync and those the server set aside. Loaded only once a member is signed in
 * (MemberLayout), so a visitor's first screen does not download the offline module.
 */
export default function MemberSync({ memberId }: { memberId: number }) {
  useDueReviewsWatch();
  // Opened already when the page started signed in (main.tsx); else now (offline/index.ts).
  useEffect(() => void ensureOffline(memberId), [memberId]);
  // Reminders on here, but the permission revoked or the subscription gone: unsubscribed on the server.
  useEffect(() => watchPushPermission(), [memberId]);
  useEffect(() => {
    // Official-exam answers an earlier version of the app left unsent in localStorage go out
    // now and on reconnect (today's answers travel through the member's outbox).
    const flush = () => void flushLegacyOfficialAttempts();
    flush();
    window.addEventListener("online", flush);
    return () => window.removeEventListener("online", flush);
  }, [memberId]);
  return (
    <>
      <PendingChanges />
      <RejectedChanges />
    </>
  );
}
