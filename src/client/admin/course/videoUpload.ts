import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { MAX_VIDEO_BYTES, type UploadedVideo } from "../../../shared/admin/courses.ts";
import { sendUpload } from "../../api/upload.ts";

/** What the lesson video field accepts: MP4, WebM, or an HLS folder zipped. */
export const VIDEO_ACCEPT = ".mp4,.webm,.zip,video/mp4,video/webm,application/zip";

/** Why a chosen file is refused before it is sent (the server checks again, and its content). */
export function videoProblem(file: File): MessageDescriptor | null {
  const ext = file.name.split(".").pop()?.toLowerCase() ?? "";
  if (!["mp4", "webm", "zip"].includes(ext)) return msg`Please upload an MP4 or WebM video, or an HLS folder as a .zip`;
  if (file.size === 0) return msg`The file is empty`;
  if (file.size > MAX_VIDEO_BYTES) return msg`The video is larger than 2 GB`;
  return null;
}

/**
 * Seconds of a video file, read by the browser from the file's own metadata (a <video> element
 * on the chosen File, nothing uploaded); 0 when the browser cannot tell (an HLS zip: the server
 * reads its playlist).
 */
export function readVideoDuration(file: File, timeoutMs = 15_000): Promise<number> {
  if (!/\.(mp4|webm)$/i.test(file.name) || typeof document === "undefined") return Promise.resolve(0);
  return new Promise((resolve) => {
    const video = document.createElement("video");
    const url = URL.createObjectURL(file);
    const done = (seconds: number) => {
      clearTimeout(timer);
      video.removeAttribute("src");
      video.load();
      URL.revokeObjectURL(url);
      resolve(Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : 0);
    };
    const timer = setTimeout(() => done(0), timeoutMs);
    video.preload = "metadata";
    video.muted = true;
    video.onloadedmetadata = () => done(video.duration);
    video.onerror = () => done(0);
    video.src = url;
  });
}

/** Sends the file to `POST /admin/course/lesson/upload` with progress; rejects when refused, cut or cancelled. */
export async function uploadLessonVideo(file: File, onProgress: (percent: number) => void, signal: AbortSignal): Promise<UploadedVideo> {
  const form = new FormData();
  form.append("file", file);
  const res = await sendUpload<{ video: UploadedVideo }>("/admin/course/lesson/upload", form, onProgress, signal);
  return res.video;
}
