import { withCommonCatalog } from "../i18n/index.ts";
import { STORE_USER_INFO } from "../stores/keys.ts";
import { ROUTE_NAMES } from "../routing/routeNames.ts";

/** The signed-in member this page starts for (the `userInfo` store as persisted), or 0. */
function storedMemberId(): number {
  try {
    const state = (JSON.parse(localStorage.getItem(STORE_USER_INFO) ?? "null") as { state?: { id?: unknown; token?: unknown } } | null)?.state;
    return typeof state?.id === "number" && state.id > 0 && state.token ? state.id : 0;
  } catch {
    return 0;
  }
}

/** The bank of the practice page this page starts on (`?bank=`), or 0. */
function practiceBankOpened(): number {
  if (location.pathname !== ROUTE_NAMES.myPractice) return 0;
  const bank = Number(new URLSearchParams(location.search).get("bank") ?? "");
  return Number.isSafeInteger(bank) && bank > 0 ? bank : 0;
}

/**
 * A signed-in member's page opens their offline database now, while the app sets up, not once
 * the header's MemberSync has loaded and mounted: every screen that reads the device (practice
 * first) waits for it; on the practice page, its question is read with it, before the screen is
 * there. The back office does not use it.
 */
export function openMemberDataEarly(): void {
  const memberId = storedMemberId();
  if (!memberId || location.pathname.startsWith("/admin")) return;
  // With the common catalog, as MemberSync loads it: the offline module's messages are there.
  const offline = withCommonCatalog(() => import("../offline/index.ts"));
  void offline()
    .then(({ ensureOffline }) => ensureOffline(memberId, { practiceBank: practiceBankOpened() }))
    .catch(() => undefined);
  // Every screen of theirs asks the server for something at once: the request layer comes now too.
  void import("../api/index.ts").then(({ warmRequests }) => warmRequests());
}
