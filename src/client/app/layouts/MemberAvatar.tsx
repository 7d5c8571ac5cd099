import { useState } from "react";
import { UserRound } from "lucide-react";
import { fullUrl } from "../../../shared/url.ts";
import { useSiteConfig } from "../../stores/siteConfig.ts";
import { useUserInfo } from "../../stores/userInfo.ts";

/**
 * The signed-in member's avatar beside their name in the menus (decorative: the name is the
 * text), or the person icon when they have none or it does not load (offline, removed).
 */
export function MemberAvatar({ className = "size-6" }: { className?: string }) {
  const avatar = useUserInfo((s) => s.avatar);
  const cdnUrl = useSiteConfig((s) => s.cdnUrl);
  const apiUrl = useSiteConfig((s) => s.apiUrl);
  const src = fullUrl(avatar, cdnUrl, apiUrl);
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) return <UserRound aria-hidden className="size-4" />;
  return <img src={src} alt="" onError={() => setFailed(src)} className={`${className} shrink-0 rounded-full border border-slate-200 object-cover dark:border-slate-700`} />;
}
