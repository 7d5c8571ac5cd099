import { useCallback, useEffect, useRef, useState } from "react";
import type { DeviceProblem } from "../../../shared/exam/face.ts";
import { cameraProblemOf, frameOf, openCamera, stopCamera, videoReady } from "./faceCamera.ts";

export type CameraState = { state: "opening" } | { state: "ready" } | { state: "problem"; problem: DeviceProblem };

/** The camera while the screen is open: the `<video>` to show it in, its state, and a frame grabber. */
export function useCamera(enabled = true) {
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const [camera, setCamera] = useState<CameraState>({ state: "opening" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!enabled) return;
    let stream: MediaStream | null = null;
    let cancelled = false;
    openCamera()
      .then(async (s) => {
        stream = s;
        if (cancelled) return stopCamera(s);
        const video = videoRef.current;
        if (!video) return;
        video.srcObject = s;
        await video.play().catch(() => undefined);
        await videoReady(video);
        if (!cancelled) setCamera({ state: "ready" });
      })
      .catch((error: unknown) => {
        if (!cancelled) setCamera({ state: "problem", problem: cameraProblemOf(error) });
      });
    return () => {
      cancelled = true;
      stopCamera(stream);
    };
  }, [enabled, attempt]);

  const grab = useCallback(() => (videoRef.current && videoRef.current.videoWidth > 0 ? frameOf(videoRef.current) : null), []);
  const retry = useCallback(() => {
    setCamera({ state: "opening" });
    setAttempt((n) => n + 1);
  }, []);
  return { videoRef, camera, grab, retry };
}
