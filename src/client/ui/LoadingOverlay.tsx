import { useLingui } from "@lingui/react/macro";
import { useRequestLoading } from "../stores/requestLoading.ts";
import { Spinner } from "./Spinner.tsx";

/** One overlay while any request with `loading: true` runs. */
export function LoadingOverlay() {
  const count = useRequestLoading((s) => s.count);
  const { t } = useLingui();
  if (count === 0) return null;
  return (
    <div role="alert" aria-busy="true" aria-label={t`Loading`} className="fixed inset-0 z-[60] flex items-center justify-center bg-white/50 dark:bg-slate-950/50">
      <Spinner className="size-10" />
    </div>
  );
}
