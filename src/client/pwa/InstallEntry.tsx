import { useId, useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { Download, Share, SquarePlus } from "lucide-react";
import { Button } from "../ui/Button.tsx";
import { promptInstall, useInstallWay } from "./install.ts";

const ENTRY_CLASS =
  "flex min-h-11 w-full items-center gap-2 rounded-md px-3 text-left text-base text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800";

/**
 * "Install the app" in the phone menu: the browser's install dialog where it offered one, on iOS
 * (no such dialog) how to add the app to the home screen from the share sheet. Nothing once the
 * app is installed or opened as the installed app, nor in a browser that offers neither.
 */
export function InstallEntry() {
  const { t } = useLingui();
  const way = useInstallWay();
  const [hintOpen, setHintOpen] = useState(false);
  const hintId = useId();
  if (way === "none") return null;
  if (way === "prompt") {
    return (
      <Button variant="bare" className={ENTRY_CLASS} onClick={() => void promptInstall()}>
        <Download aria-hidden className="size-4" />
        {t`Install the app`}
      </Button>
    );
  }
  return (
    <div>
      <Button variant="bare" className={ENTRY_CLASS} aria-expanded={hintOpen} aria-controls={hintId} onClick={() => setHintOpen((open) => !open)}>
        <Download aria-hidden className="size-4" />
        {t`Install the app`}
      </Button>
      {hintOpen && <IosInstallHint id={hintId} />}
    </div>
  );
}

/** Safari on iOS: Share, then "Add to Home Screen" (the words iOS shows, in the member's language). */
export function IosInstallHint({ id }: { id?: string }) {
  return (
    <div id={id} role="note" className="mx-3 mt-1 mb-2 rounded-lg bg-blue-50 p-3 text-sm text-slate-800 dark:bg-slate-800 dark:text-slate-100">
      <p className="font-medium">
        <Trans>Put the app on your home screen:</Trans>
      </p>
      <ol className="mt-2 space-y-2">
        <li className="flex items-start gap-2">
          <span aria-hidden className="flex size-6 shrink-0 items-center justify-center rounded bg-white text-primary dark:bg-slate-900">
            <Share className="size-4" />
          </span>
          <span>
            <Trans>Tap Share in the browser's toolbar.</Trans>
          </span>
        </li>
        <li className="flex items-start gap-2">
          <span aria-hidden className="flex size-6 shrink-0 items-center justify-center rounded bg-white text-primary dark:bg-slate-900">
            <SquarePlus className="size-4" />
          </span>
          <span>
            <Trans>Choose "Add to Home Screen", then Add.</Trans>
          </span>
        </li>
      </ol>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">
        <Trans>The app then opens from its icon, full screen, and works offline.</Trans>
      </p>
    </div>
  );
}
