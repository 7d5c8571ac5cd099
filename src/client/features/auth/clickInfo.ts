/** Pure pieces of the click captcha (API.md `checkClickCaptcha`), kept apart for tests. */

export interface Point {
  x: number;
  y: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const clamp01 = (n: number) => (Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0);

/**
 * `"x1,y1-x2,y2;renderedWidth;renderedHeight"`: the clicks in the order made, in pixels of the
 * image as displayed, and the displayed size (the server scales back to image pixels).
 * Numbers keep at most 2 decimals; points never fall outside the image.
 */
export function formatClickInfo(points: readonly Point[], renderedWidth: number, renderedHeight: number): string {
  const w = round2(Math.max(0, renderedWidth));
  const h = round2(Math.max(0, renderedHeight));
  const xy = points.map((p) => `${round2(Math.min(w, Math.max(0, p.x)))},${round2(Math.min(h, Math.max(0, p.y)))}`);
  return `${xy.join("-")};${w};${h}`;
}

/**
 * Where a click landed on the displayed image, as fractions (0..1) of its width and height, so
 * markers and the final info stay right if the image is resized between clicks.
 */
export function clickFraction(clientX: number, clientY: number, rect: { left: number; top: number; width: number; height: number }): Point {
  return {
    x: rect.width > 0 ? clamp01((clientX - rect.left) / rect.width) : 0,
    y: rect.height > 0 ? clamp01((clientY - rect.top) / rect.height) : 0,
  };
}

/** Fractions back to pixels of the image displayed at `width` x `height`. */
export function toRendered(fractions: readonly Point[], width: number, height: number): Point[] {
  return fractions.map((f) => ({ x: f.x * width, y: f.y * height }));
}
