import { Trans, useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";

/** An upload's progress bar and the reason a chosen file was refused (shared by the upload fields). */
export function UploadStatus({ progress, problem }: { progress: number | null; problem: MessageDescriptor | null }) {
  const { i18n } = useLingui();
  return (
    <>
      {progress !== null && (
        <div className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <div role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress} className="h-2 w-40 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
            <div className="h-full bg-primary transition-[width]" style={{ width: `${progress}%` }} />
          </div>
          <Trans>Uploading… {progress}%</Trans>
        </div>
      )}
      {problem && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {i18n._(problem)}
        </p>
      )}
    </>
  );
}
