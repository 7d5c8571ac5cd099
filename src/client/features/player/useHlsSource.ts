import { useEffect, useMemo, useState, type RefObject } from "react";
import { hlsPlayback } from "./controls.ts";

/**
 * The video element's source. MP4 and WebM files, and HLS where the browser plays it itself
 * (older iPhones), are the element's `src`. HLS wherever Media Source Extensions exist (see
 * hlsPlayback) goes through hls.js instead — its own chunk, loaded only then — attached to the
 * element and destroyed when the source changes or the player goes away (which empties the
 * element: read its position before that).
 *
 * `src` is what the element's `src` attribute gets (undefined under hls.js); `failed` turns true
 * when hls.js cannot run here, its chunk does not load, or it reports a fatal error.
 */
export function useHlsSource(videoRef: RefObject<HTMLVideoElement | null>, url: string, videoType: string): { src: string | undefined; failed: boolean } {
  const [failed, setFailed] = useState(false);
  const useHlsJs = useMemo(() => videoType === "hls" && hlsPlayback() === "hls.js", [videoType]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !useHlsJs) return;
    let cancelled = false;
    let hls: { destroy(): void } | null = null;
    import("hls.js").then(
      ({ default: Hls }) => {
        if (cancelled) return;
        if (!Hls.isSupported()) {
          setFailed(true);
          return;
        }
        const instance = new Hls();
        hls = instance;
        instance.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) setFailed(true);
        });
        instance.loadSource(url);
        instance.attachMedia(video);
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      hls?.destroy();
    };
  }, [videoRef, useHlsJs, url]);

  return { src: useHlsJs ? undefined : url, failed };
}
