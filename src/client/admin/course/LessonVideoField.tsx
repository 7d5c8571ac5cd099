import { Trans, useLingui } from "@lingui/react/macro";
import type { MessageDescriptor } from "@lingui/core";
import { Film, Upload, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { NO_VIDEO, type LessonVideo } from "../../../shared/admin/courses.ts";
import { Auth } from "../../routing/auth.tsx";
import { Button } from "../../ui/Button.tsx";
import { FileUploadButton } from "../../ui/FileUploadButton.tsx";
import { formatBytes, formatClock } from "../../ui/format.ts";
import { UploadStatus } from "../crud/fields/UploadProgress.tsx";
import type { CustomFieldProps } from "../crud/types.ts";
import { actionNode } from "../crud/CrudScreen.tsx";
import { readVideoDuration, uploadLessonVideo, VIDEO_ACCEPT, videoProblem } from "./videoUpload.ts";

function asVideo(value: unknown): LessonVideo {
  const v = value as Partial<LessonVideo> | null;
  return v && typeof v.url === "string" && v.url !== ""
    ? { url: v.url, type: v.type ?? "", size: Number(v.size) || 0, duration: Number(v.duration) || 0, name: typeof v.name === "string" ? v.name : "" }
    : NO_VIDEO;
}

/**
 * A lesson's video: upload an MP4 / WebM file or an HLS folder as a .zip (streamed to the server
 * with a progress bar, cancellable: the server keeps nothing of a cut upload); the length is read
 * by the browser from the file while it uploads (for a zip, from its playlist by the server) and
 * can be corrected by hand.
 */
export function LessonVideoField({ value, onChange, control }: CustomFieldProps) {
  const { t } = useLingui();
  const video = asVideo(value);
  const abort = useRef<AbortController | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<MessageDescriptor | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  async function choose([file]: File[]) {
    if (!file) return;
    const refused = videoProblem(file);
    setProblem(refused);
    if (refused) return;
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    try {
      const [uploaded, duration] = await Promise.all([uploadLessonVideo(file, setProgress, controller.signal), readVideoDuration(file)]);
      onChange({ url: uploaded.url, type: uploaded.type, size: uploaded.size, duration: uploaded.type === "hls" ? uploaded.duration : duration, name: uploaded.name });
    } catch {
      // Refused or cut (the request layer said why) or cancelled: the field keeps its video.
    } finally {
      abort.current = null;
      setProgress(null);
    }
  }

  // The name it was uploaded under; a video from before names were kept (or a link) shows its file.
  const name = video.name || (video.url.split("/").pop() ?? "");
  return (
    <div className="space-y-2">
      {video.url !== "" && (
        <div className="space-y-2 rounded-md border border-slate-300 px-3 py-2 dark:border-slate-600" data-testid="lesson-video">
          <div className="flex items-center gap-3">
            <Film aria-hidden className="size-5 shrink-0 text-slate-500 dark:text-slate-400" />
            <span className="rounded bg-slate-200 px-1.5 text-xs font-semibold uppercase dark:bg-slate-700">{video.type}</span>
            <a href={video.url} target="_blank" rel="noopener noreferrer" title={name} className="min-w-0 flex-1 truncate text-primary underline">
              {name}
            </a>
            {video.size > 0 && <span className="shrink-0 text-sm tabular-nums text-slate-600 dark:text-slate-300">{formatBytes(video.size)}</span>}
            <Button variant="dangerGhost" size="iconSm" onClick={() => onChange(NO_VIDEO)} aria-label={t`Remove video`}>
              <X className="size-4" aria-hidden />
            </Button>
          </div>
          <label className="flex items-center gap-2 text-sm">
            <Trans>Length (seconds)</Trans>
            <input
              type="number"
              min={0}
              max={86400}
              inputMode="numeric"
              value={video.duration}
              onChange={(e) => onChange({ ...video, duration: Math.max(0, Math.min(86_400, Math.round(Number(e.target.value) || 0))) })}
              className="min-h-11 w-28 rounded-md border border-slate-300 bg-white px-3 text-base tabular-nums outline-none focus-visible:ring-2 focus-visible:ring-primary dark:border-slate-600 dark:bg-slate-800"
              data-testid="lesson-video-duration"
            />
            <span className="tabular-nums text-slate-500 dark:text-slate-400">{formatClock(video.duration)}</span>
          </label>
        </div>
      )}
      <Auth node={actionNode("course/lesson", "upload")}>
        <div className="flex flex-wrap items-center gap-2">
          <FileUploadButton {...control} variant="secondary" disabled={progress !== null} accept={VIDEO_ACCEPT} onFiles={(files) => void choose(files)} inputTestId="video-input">
            <Upload className="size-4" aria-hidden />
            {video.url ? t`Replace video` : t`Upload video`}
          </FileUploadButton>
          {progress !== null && (
            <Button variant="secondary" onClick={() => abort.current?.abort()}>
              <Trans>Cancel upload</Trans>
            </Button>
          )}
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <Trans>MP4 or WebM, or an HLS folder as a .zip (with its .m3u8 playlist), up to 2 GB.</Trans>
        </p>
      </Auth>
      <UploadStatus progress={progress} problem={problem} />
    </div>
  );
}
