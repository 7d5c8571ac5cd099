import type { DeviceProblem } from "../../../shared/exam/face.ts";

/**
 * The camera for face checks: open it (the front camera, small), take a JPEG snapshot of the
 * video, stop it. A camera that cannot be used says why, as the server's words for it
 * (camera refused, no camera, camera failed): never a silent pass.
 */

export class CameraProblemError extends Error {
  constructor(readonly problem: DeviceProblem) {
    super(problem);
  }
}

export function cameraProblemOf(error: unknown): DeviceProblem {
  if (error instanceof CameraProblemError) return error.problem;
  const name = (error as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "SecurityError" || name === "PermissionDeniedError") return "camera_refused";
  if (name === "NotFoundError" || name === "OverconstrainedError" || name === "DevicesNotFoundError") return "no_camera";
  return "camera_failed";
}

export async function openCamera(): Promise<MediaStream> {
  if (typeof navigator === "undefined" || !navigator.mediaDevices?.getUserMedia) throw new CameraProblemError("no_camera");
  try {
    return await navigator.mediaDevices.getUserMedia({ video: { facingMode: "user", width: { ideal: 640 }, height: { ideal: 480 } }, audio: false });
  } catch (error) {
    throw new CameraProblemError(cameraProblemOf(error));
  }
}

export function stopCamera(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** Waits until the video shows frames (at most `ms`). */
export function videoReady(video: HTMLVideoElement, ms = 10_000): Promise<void> {
  if (video.readyState >= 2 && video.videoWidth > 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new CameraProblemError("camera_failed")), ms);
    video.addEventListener(
      "loadeddata",
      () => {
        window.clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** The current frame, scaled to at most `maxSide` px, as a canvas. */
export function frameOf(video: HTMLVideoElement, maxSide = 640): HTMLCanvasElement {
  const scale = Math.min(1, maxSide / Math.max(video.videoWidth, video.videoHeight));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
  canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
  canvas.getContext("2d")?.drawImage(video, 0, 0, canvas.width, canvas.height);
  return canvas;
}

export function jpegOf(canvas: HTMLCanvasElement): string {
  return canvas.toDataURL("image/jpeg", 0.85);
}

/**
 * A picture file (a photo chosen instead of the camera's frame) on a canvas, its longer side at
 * most `maxSide` as the camera's frames are; null when the browser cannot read it as an image.
 */
export async function frameOfFile(file: Blob, maxSide = 640): Promise<HTMLCanvasElement | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return canvas;
  } catch {
    return null;
  }
}
