import { useLingui } from "@lingui/react/macro";
import { useOnline } from "../browser/useOnline.ts";

/** A dot and a word: online or offline (never colour alone). */
export function OnlineIndicator() {
  const online = useOnline();
  const { t } = useLingui();
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-300" title={online ? t`Online` : t`Offline`}>
      <span aria-hidden className={`size-2 rounded-full ${online ? "bg-emerald-500" : "bg-amber-500"}`} />
      <span>{online ? t`Online` : t`Offline`}</span>
    </span>
  );
}
