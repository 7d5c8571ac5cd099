import { useCallback, useEffect, useRef, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { CloudOff, RotateCw } from "lucide-react";
import { useNavigate, useParams } from "react-router-dom";
import { Spinner } from "../ui/Spinner.tsx";
import { useOnline } from "../browser/useOnline.ts";
import { parseLoadingTarget, targetUrl } from "./routeState.ts";
import { Button } from "../ui/Button.tsx";

/**
 * `{base}/loading/:to?` (SPEC §2): loads the area's data, then opens the original path and
 * query carried as JSON, or the area's first menu. A failed load is handled by the request
 * layer (303 -> login, a toast for the rest) and ends here in an error or offline state with
 * "Try again"; it tries again by itself when the connection returns.
 */
export function AreaLoading({ load, fallback }: { load: () => Promise<string | undefined>; fallback: string }) {
  const { t } = useLingui();
  const { to } = useParams();
  const navigate = useNavigate();
  const online = useOnline();
  const running = useRef(false);
  const [failed, setFailed] = useState(false);

  const run = useCallback(() => {
    if (running.current) return;
    running.current = true;
    setFailed(false);
    load().then(
      (first) => {
        const target = parseLoadingTarget(to);
        void navigate(target ? targetUrl(target) : (first ?? fallback), { replace: true });
      },
      () => {
        running.current = false;
        setFailed(true);
      },
    );
  }, [load, to, navigate, fallback]);

  useEffect(() => run(), [run]);
  useEffect(() => {
    // Back online after a failure: try again without waiting for a click.
    if (online && failed) run();
  }, [online, failed, run]);

  if (failed) {
    return (
      <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 py-24 text-center text-slate-700 dark:text-slate-200">
        <CloudOff aria-hidden className="size-10 text-slate-500 dark:text-slate-400" />
        <p>{online ? t`This page could not be loaded.` : t`You are offline: this page needs a connection to load.`}</p>
        <Button
          variant="primary"
          onClick={run}
        >
          <RotateCw aria-hidden className="size-4" />
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  return (
    <div role="status" className="flex flex-col items-center gap-3 py-24 text-slate-600 dark:text-slate-300">
      <Spinner className="size-8" />
      <Trans>Loading…</Trans>
    </div>
  );
}
