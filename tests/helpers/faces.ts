import { createRequire } from "node:module";
import { crc32, deflateSync } from "node:zlib";
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

/**
 * A real, decodable PNG of `width` × `height` pixels that is tiny on the wire: 1-bit grey, every
 * pixel black, so deflate shrinks it about 1000 times (20000 × 20000 is about 50 KB, and a decoder
 * that trusts its header allocates width × height × 4 bytes: 1.6 GB).
 */
export function hugePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  // Each row: filter byte 0, then ceil(width / 8) bytes of zeros.
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

/** `hugePng` as a base64 data: URL. */
export const hugePngDataUrl = (width: number, height: number): string => `data:image/png;base64,${hugePng(width, height).toString("base64")}`;
