import { onLanguageChange } from "../i18n/index.ts";
import { AreaLoading } from "../routing/AreaLoading.tsx";
import { useMemberCenter } from "../stores/memberCenter.ts";
import { loadMemberCenter, memberCenterReady } from "./memberCenterData.ts";

export { loadMemberCenter } from "./memberCenterData.ts";

// The member center's menus come translated by the server: asked for again in the new language.
onLanguageChange(() => {
  if (useMemberCenter.getState().loaded) loadMemberCenter().catch(() => undefined);
});

/** Loads the member center (or waits for the request the router started with the page: memberCenterReady), then opens the page asked for. */
export default function UserLoading() {
  return <AreaLoading load={memberCenterReady} fallback="/user/course/my_course" />;
}
