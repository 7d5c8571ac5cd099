import { useEffect, useRef } from "react";
import { Trans } from "@lingui/react/macro";
import { useNavigate, useParams } from "react-router-dom";
import { Spinner } from "../ui/Spinner.tsx";
import { parseLoadingTarget, targetUrl } from "./routeState.ts";

/**
 * `{base}/loading/:to?` (SPEC §2): loads the area's data, then opens the original path and
 * query carried as JSON, or the area's first menu. A failed load is handled by the request
 * layer (303 -> login) or shows the error with a retry.
 */
export function AreaLoading({ load, fallback }: { load: () => Promise<string | undefined>; fallback: string }) {
  const { to } = useParams();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    load().then(
      (first) => {
        const target = parseLoadingTarget(to);
        void navigate(target ? targetUrl(target) : (first ?? fallback), { replace: true });
      },
      () => {
        started.current = false;
      },
    );
  }, [load, to, navigate, fallback]);
  return (
    <div role="status" className="flex flex-col items-center gap-3 py-24 text-slate-600 dark:text-slate-300">
      <Spinner className="size-8" />
      <Trans>Loading…</Trans>
    </div>
  );
}
