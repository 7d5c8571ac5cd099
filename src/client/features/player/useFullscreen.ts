import { useEffect, useState, type RefObject } from "react";
import { listen } from "../../browser/listen.ts";

type FullscreenDocument = Document & { webkitFullscreenElement?: Element | null; webkitExitFullscreen?: () => void };

function fullscreenElement(): Element | null {
  const doc = document as FullscreenDocument;
  return doc.fullscreenElement ?? doc.webkitFullscreenElement ?? null;
}

/**
 * Full screen for the player's frame (the video with the app's controls), or out of it. Where a
 * page element cannot go full screen (iPhone Safari), the video goes into the system's own
 * full-screen player, which brings its native controls (the only place they are shown).
 */
export function toggleFullscreen(frame: HTMLElement, video: HTMLVideoElement): void {
  const doc = document as FullscreenDocument;
  if (fullscreenElement()) {
    if (doc.exitFullscreen) void doc.exitFullscreen().catch(() => undefined);
    else doc.webkitExitFullscreen?.();
    return;
  }
  const box = frame as HTMLElement & { webkitRequestFullscreen?: () => void };
  const el = video as HTMLVideoElement & { webkitEnterFullscreen?: () => void };
  if (typeof box.requestFullscreen === "function" && document.fullscreenEnabled !== false) void box.requestFullscreen().catch(() => el.webkitEnterFullscreen?.());
  else if (typeof box.webkitRequestFullscreen === "function") box.webkitRequestFullscreen();
  else el.webkitEnterFullscreen?.();
}

/**
 * Which full screen the player is in: the frame's (app controls included; `frame` is the element
 * then, so menus can open inside it), or the system player's (`native`: its own controls are
 * needed there, iPhone).
 */
export function useFullscreen(
  frameRef: RefObject<HTMLElement | null>,
  videoRef: RefObject<HTMLVideoElement | null>,
): { frame: HTMLElement | null; native: boolean } {
  const [frame, setFrame] = useState<HTMLElement | null>(null);
  const [native, setNative] = useState(false);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const onChange = () => {
      const current = fullscreenElement();
      setFrame(current !== null && current === frameRef.current ? frameRef.current : null);
      setNative(current !== null && current === video);
    };
    const onBegin = () => setNative(true);
    const onEnd = () => setNative(false);
    return listen([document, "fullscreenchange", onChange], [document, "webkitfullscreenchange", onChange], [video, "webkitbeginfullscreen", onBegin], [video, "webkitendfullscreen", onEnd]);
  }, [frameRef, videoRef]);

  return { frame, native };
}
