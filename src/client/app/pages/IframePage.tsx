import { useEffect } from "react";
import { useLingui } from "@lingui/react/macro";
import { useParams } from "react-router-dom";
import { useDynamicTitle } from "../routeState.ts";

/** Menu entries of type iframe: /admin/iframe/{encoded url} and /user/iframe/{encoded url}. */
export default function IframePage() {
  const { url = "" } = useParams();
  const { t } = useLingui();
  const src = safeUrl(url);
  const setTitle = useDynamicTitle((s) => s.set);
  useEffect(() => setTitle(src ?? undefined), [src, setTitle]);
  if (!src) return <p className="p-6 text-red-700">{t`This address cannot be shown.`}</p>;
  return <iframe title={src} src={src} className="h-[calc(100vh-8rem)] w-full rounded-md border-0 bg-white" />;
}

/** Only http(s) and same-origin paths: never javascript: or data: URLs. */
function safeUrl(raw: string): string | null {
  try {
    const u = new URL(raw, window.location.origin);
    return u.protocol === "http:" || u.protocol === "https:" ? u.toString() : null;
  } catch {
    return null;
  }
}
