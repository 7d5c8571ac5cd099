import { useEffect } from "react";
import { flushLegacyOfficialAttempts } from "../../features/exam/official.ts";
import { startOffline } from "../../offline/index.ts";
import { RejectedChanges } from "./RejectedChanges.tsx";

/**
 * The signed-in member's side of the header: opens their offline database and starts its sync
 * engine (closed again on logout), sends what an older version left unsent, and shows changes
 * the server set aside. Loaded only once a member is signed in (MemberLayout), so a visitor's
 * first screen does not download the offline module.
 */
export default function MemberSync({ memberId }: { memberId: number }) {
  useEffect(() => {
    startOffline(memberId);
  }, [memberId]);
  useEffect(() => {
    // Official-exam answers an earlier version of the app left unsent in localStorage go out
    // now and on reconnect (today's answers travel through the member's outbox).
    const flush = () => void flushLegacyOfficialAttempts();
    flush();
    window.addEventListener("online", flush);
    return () => window.removeEventListener("online", flush);
  }, [memberId]);
  return <RejectedChanges />;
}
