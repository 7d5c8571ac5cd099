import { useEffect, useRef, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CloudDownload, HardDrive, Info, Trash2, X } from "lucide-react";
import { Button } from "../../ui/Button.tsx";
import { formatBytes } from "../../ui/format.ts";
import { Spinner } from "../../ui/Spinner.tsx";
import { useOnline } from "../../browser/useOnline.ts";
import { removeSavedVideo, saveAvailability, saveVideo, savedVideoSize } from "./videoCache.ts";

/** "Save for offline" of a lesson video: size before saving, progress while saving, size once saved, remove. */
export function OfflineVideo({ url, videoType, videoSize }: { url: string; videoType: string; videoSize: number }) {
  const { t } = useLingui();
  const online = useOnline();
  const queryClient = useQueryClient();
  const availability = saveAvailability(url, videoType);
  const savedKey = ["lesson-video-saved", url] as const;
  const saved = useQuery({
    queryKey: savedKey,
    queryFn: () => savedVideoSize(url),
    enabled: availability === "ok",
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [error, setError] = useState("");
  const abortRef = useRef<AbortController | null>(null);

  // Leaving the lesson cancels a download in progress (nothing partial is kept).
  useEffect(() => () => abortRef.current?.abort(), []);

  if (availability === "no-video") return null;
  if (availability !== "ok") {
    const reason = availability === "external" ? t`Only videos stored on this site can be saved for offline use.` : t`This browser cannot save videos for offline use.`;
    return (
      <p className="flex items-start gap-2 text-sm text-slate-600 dark:text-slate-300">
        <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
        {reason}
      </p>
    );
  }

  async function save() {
    const controller = new AbortController();
    abortRef.current = controller;
    setError("");
    setProgress({ loaded: 0, total: videoSize });
    try {
      const size = await saveVideo(url, {
        signal: controller.signal,
        expectedSize: videoSize,
        hls: videoType === "hls",
        onProgress: (loaded, total) => setProgress({ loaded, total }),
      });
      // The player for HLS comes with the lesson: load it now so the service worker keeps it.
      if (videoType === "hls") await import("hls.js");
      queryClient.setQueryData(savedKey, size);
    } catch (e) {
      const name = (e as { name?: string } | null)?.name;
      if (name === "AbortError") return;
      setError(name === "QuotaExceededError" ? t`There is not enough storage space on this device.` : t`The video could not be saved. Try again when online.`);
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      setProgress(null);
    }
  }

  async function remove() {
    await removeSavedVideo(url).catch(() => false);
    queryClient.setQueryData(savedKey, null);
  }

  const size = formatBytes(videoSize);
  const savedSize = typeof saved.data === "number" ? formatBytes(saved.data) : "";
  const percent = progress && progress.total > 0 ? Math.min(100, Math.floor((progress.loaded / progress.total) * 100)) : null;
  const received = progress ? formatBytes(progress.loaded) || "0 B" : "";

  return (
    <section aria-label={t`Offline video`} className="space-y-2 rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      {saved.isPending ? (
        <Spinner className="size-5" />
      ) : typeof saved.data === "number" ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="flex items-center gap-2 text-sm" role="status">
            <HardDrive aria-hidden className="size-4 text-emerald-700 dark:text-emerald-400" />
            {savedSize ? t`Saved on this device (${savedSize}): plays offline.` : t`Saved on this device: plays offline.`}
          </p>
          <Button onClick={() => void remove()}>
            <Trash2 aria-hidden className="size-4" />
            {t`Remove`}
          </Button>
        </div>
      ) : progress ? (
        <div className="space-y-2" role="status">
          <div className="flex items-center justify-between gap-2 text-sm">
            <span className="flex items-center gap-2">
              <Spinner className="size-4" />
              {percent === null ? t`Saving… ${received}` : t`Saving… ${percent}%`}
            </span>
            <Button onClick={() => abortRef.current?.abort()}>
              <X aria-hidden className="size-4" />
              {t`Cancel`}
            </Button>
          </div>
          <progress className="h-2 w-full accent-primary" max={100} value={percent ?? undefined} aria-label={t`Saving the video`} />
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-600 dark:text-slate-300">{size ? t`Video size: ${size}` : t`Save the video to watch it without a connection.`}</p>
          <Button disabled={!online} onClick={() => void save()}>
            <CloudDownload aria-hidden className="size-4" />
            {t`Save for offline`}
          </Button>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </section>
  );
}
