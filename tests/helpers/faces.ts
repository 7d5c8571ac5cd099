import { createRequire } from "node:module";
import path from "node:path";
import { createCanvas, loadImage, type Image } from "@napi-rs/canvas";

/**
 * Test pictures for the face checks, composed from the sample photo shipped in
 * `@vladmandic/human` (assets/samples.jpg: a strip of thumbnails over a crowd photo): the woman
 * of the second thumbnail ("a"), the same woman cropped and framed differently ("aAgain"), the
 * man of the third ("b"), both side by side ("two"), and a patch of the ceiling ("none").
 */

const require = createRequire(import.meta.url);
export const HUMAN_SAMPLES = path.resolve(path.dirname(require.resolve("@vladmandic/human")), "../assets/samples.jpg");

export type FacePicture = "a" | "aAgain" | "b" | "two" | "none";
type Part = [sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number];

const LAYOUTS: Record<FacePicture, { w: number; h: number; bg: string; parts: Part[] }> = {
  a: { w: 320, h: 328, bg: "#888", parts: [[164, 0, 152, 156, 0, 0, 320, 328]] },
  aAgain: { w: 320, h: 360, bg: "#ccc", parts: [[174, 10, 132, 136, 20, 30, 280, 290]] },
  b: { w: 320, h: 236, bg: "#888", parts: [[324, 0, 212, 156, 0, 0, 320, 236]] },
  two: { w: 500, h: 460, bg: "#888", parts: [[180, 0, 110, 130, 10, 100, 220, 260], [390, 0, 120, 140, 260, 100, 220, 260]] },
  none: { w: 400, h: 300, bg: "#888", parts: [[300, 250, 400, 300, 0, 0, 400, 300]] },
};

let samples: Promise<Image> | null = null;

/** A test picture as a canvas (e.g. to draw into video frames). */
export async function faceCanvas(which: FacePicture, size?: { w: number; h: number }) {
  samples ??= loadImage(HUMAN_SAMPLES);
  const src = await samples;
  const layout = LAYOUTS[which];
  const w = size?.w ?? layout.w;
  const h = size?.h ?? layout.h;
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = layout.bg;
  ctx.fillRect(0, 0, w, h);
  // Centred, scaled to fit the asked size.
  const scale = Math.min(w / layout.w, h / layout.h);
  const ox = (w - layout.w * scale) / 2;
  const oy = (h - layout.h * scale) / 2;
  for (const [sx, sy, sw, sh, dx, dy, dw, dh] of layout.parts) ctx.drawImage(src, sx, sy, sw, sh, ox + dx * scale, oy + dy * scale, dw * scale, dh * scale);
  return canvas;
}

/** A test picture as JPEG bytes. */
export async function facePicture(which: FacePicture): Promise<Buffer> {
  return (await faceCanvas(which)).toBuffer("image/jpeg", 90);
}

/** A test picture as a base64 data: URL (what the device sends). */
export async function faceDataUrl(which: FacePicture): Promise<string> {
  return `data:image/jpeg;base64,${(await facePicture(which)).toString("base64")}`;
}
