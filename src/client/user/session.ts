import { request } from "../api/index.ts";
import { useMemberCenter } from "../stores/memberCenter.ts";
import { useUserInfo } from "../stores/userInfo.ts";

/**
 * SPEC §4: member logout posts the refresh token; on code 1 the member's official exams leave the
 * device (unsent answers stay queued for the next sign-in), the member info is cleared and the
 * page reloads.
 */
export async function logoutMember(): Promise<void> {
  const res = await request({ url: "/api/user/logout", method: "post", data: { refreshToken: useUserInfo.getState().getToken("refresh") } });
  if (res.code === 1) {
    // The offline module is loaded on every signed-in screen (MemberSync), so this is at hand.
    const { forgetOfficialOnSignOut } = await import("../offline/index.ts");
    await forgetOfficialOnSignOut();
    useUserInfo.getState().clear();
    useMemberCenter.getState().reset();
    window.location.reload();
  }
}
