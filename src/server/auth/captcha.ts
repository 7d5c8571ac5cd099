import { randomInt } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import type * as napiCanvasModule from "@napi-rs/canvas";
import type { SKRSContext2D } from "@napi-rs/canvas";
import { UUID_LENGTH } from "../../shared/constants.ts";
import type { Queryable } from "../db/index.ts";
import { captchaExpiry, claimCaptcha, deleteCaptcha, deleteCaptchasExpiredBefore, saveCaptcha, takeCaptcha, type CaptchaRow } from "./repository.ts";
import { lazyRequire } from "../lazy.ts";

const napiCanvas = lazyRequire<typeof napiCanvasModule>("@napi-rs/canvas");

/**
 * The click captcha (API.md "clickCaptcha"): a PNG drawn here with 2 target and 2 decoy
 * characters; the member clicks the targets in the order listed. Only the target boxes are
 * stored (table `captcha`, image pixels, click order); nothing about positions leaves the
 * server.
 */

export const CAPTCHA_WIDTH = 350;
export const CAPTCHA_HEIGHT = 200;
/** Seconds a captcha stays valid. */
export const CAPTCHA_TTL = 600;
export const CAPTCHA_TARGETS = 2;
export const CAPTCHA_DECOYS = 2;
/** Characters nobody confuses with another (no I/1, O/0, S/5, B/8, G/6, Z/2, Q). */
export const CAPTCHA_CHARSET = "ACDEFHJKLMNPRTUVWXY34679";
/** How far (image pixels) outside a target's box a click still counts. */
export const CLICK_TOLERANCE = 4;

/** Longest `info` accepted ("x,y-x,y;w;h" needs far less). */
const MAX_INFO_LENGTH = 200;
/** Largest displayed size accepted for the image (CSS pixels). */
const MAX_RENDERED_SIZE = 10_000;

/** A target's axis-aligned box in image pixels. */
export interface CaptchaBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** What `GET /api/common/clickCaptcha` answers. */
export interface ClickCaptchaImage {
  id: string;
  /** The target characters, in the order they must be clicked. */
  text: string[];
  /** `data:image/png;base64,...` */
  base64: string;
  width: number;
  height: number;
}

export type CaptchaObserver = (id: string, answerCenters: { x: number; y: number }[], width: number, height: number) => void;

let observer: CaptchaObserver | null = null;

/**
 * Test-only: browser tests learn where the targets are. main.ts sets it only when an env var
 * names a file; never in production and never through an endpoint.
 */
export function setCaptchaObserver(fn: CaptchaObserver | null): void {
  observer = fn;
}

const now = () => Math.floor(Date.now() / 1000);

export function isCaptchaId(id: unknown): id is string {
  return typeof id === "string" && id.length === UUID_LENGTH && /^[0-9a-f-]+$/.test(id);
}

// ---------------------------------------------------------------------------------------------
// Drawing

const FONT_FAMILY = "ExamHubCaptcha";
let fontReady = false;

/** Registers DejaVu Sans Bold once (resolved through node_modules: works from src and dist). */
function ensureFont(): void {
  if (fontReady) return;
  const require = createRequire(import.meta.url);
  const dir = path.join(path.dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");
  const key = napiCanvas().GlobalFonts.registerFromPath(path.join(dir, "DejaVuSans-Bold.ttf"), FONT_FAMILY);
  if (!key) throw new Error(`Could not load the captcha font from ${dir}`);
  fontReady = true;
}

const rand = (min: number, max: number) => min + (randomInt(0, 1_000_001) / 1_000_000) * (max - min);

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

function hsl(hue: number, saturation: number, lightness: number, alpha = 1): string {
  return `hsla(${Math.round(hue)}, ${Math.round(saturation)}%, ${Math.round(lightness)}%, ${alpha})`;
}

/** `count` different characters of the charset, in random order. */
const pickCharacters = (count: number): string[] => shuffle([...CAPTCHA_CHARSET]).slice(0, count);

interface Glyph {
  char: string;
  font: string;
  angle: number;
  color: string;
  /** Offset from the centre to the text origin, before rotation. */
  dx: number;
  dy: number;
  /** The rotated glyph's box (image pixels). */
  box: CaptchaBox;
}

/** Font, rotation and the rotated glyph's size; placed later. */
function shapeGlyph(ctx: SKRSContext2D, char: string): Omit<Glyph, "box"> & { w: number; h: number } {
  const size = randomInt(34, 43);
  const font = `bold ${size}px ${FONT_FAMILY}`;
  ctx.font = font;
  const m = ctx.measureText(char);
  const left = m.actualBoundingBoxLeft;
  const right = m.actualBoundingBoxRight;
  const ascent = m.actualBoundingBoxAscent;
  const descent = m.actualBoundingBoxDescent;
  const gw = Math.max(left + right, size * 0.4);
  const gh = Math.max(ascent + descent, size * 0.5);
  const angle = (rand(-35, 35) * Math.PI) / 180;
  const cos = Math.abs(Math.cos(angle));
  const sin = Math.abs(Math.sin(angle));
  return {
    char,
    font,
    angle,
    color: hsl(rand(0, 360), rand(55, 85), rand(22, 38)),
    dx: (left - right) / 2,
    dy: (ascent - descent) / 2,
    w: gw * cos + gh * sin,
    h: gw * sin + gh * cos,
  };
}

const GAP = 2 * CLICK_TOLERANCE + 6;
const MARGIN = 6;

function overlaps(a: CaptchaBox, b: CaptchaBox): boolean {
  return a.x < b.x + b.w + GAP && b.x < a.x + a.w + GAP && a.y < b.y + b.h + GAP && b.y < a.y + a.h + GAP;
}

/** Random, non-overlapping boxes; a shuffled grid of cells when random tries run out. */
function place(sizes: { w: number; h: number }[], width: number, height: number): CaptchaBox[] {
  for (let round = 0; round < 20; round++) {
    const boxes: CaptchaBox[] = [];
    for (const { w, h } of sizes) {
      for (let attempt = 0; attempt < 100; attempt++) {
        const box = { x: rand(MARGIN, width - MARGIN - w), y: rand(MARGIN, height - MARGIN - h), w, h };
        if (!boxes.some((other) => overlaps(box, other))) {
          boxes.push(box);
          break;
        }
      }
    }
    if (boxes.length === sizes.length) return boxes;
  }
  const cellWidth = width / sizes.length;
  const cells = shuffle(sizes.map((_, i) => i));
  return sizes.map(({ w, h }, i) => {
    const cell = cells[i] ?? i;
    return { x: cell * cellWidth + Math.max(0, (cellWidth - w) / 2), y: rand(MARGIN, Math.max(MARGIN, height - MARGIN - h)), w, h };
  });
}

function drawBackground(ctx: SKRSContext2D, width: number, height: number): void {
  const hue = rand(0, 360);
  const gradient = ctx.createLinearGradient(0, 0, width, height);
  gradient.addColorStop(0, hsl(hue, rand(40, 70), rand(86, 94)));
  gradient.addColorStop(0.5, hsl(hue + rand(60, 120), rand(40, 70), rand(84, 93)));
  gradient.addColorStop(1, hsl(hue + rand(150, 210), rand(40, 70), rand(86, 94)));
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);

  for (let i = 0; i < 90; i++) {
    ctx.fillStyle = hsl(rand(0, 360), rand(30, 80), rand(40, 80), rand(0.3, 0.8));
    ctx.beginPath();
    ctx.arc(rand(0, width), rand(0, height), rand(0.8, 2.6), 0, Math.PI * 2);
    ctx.fill();
  }
  for (let i = 0; i < 8; i++) {
    ctx.strokeStyle = hsl(rand(0, 360), rand(30, 80), rand(45, 75), rand(0.4, 0.8));
    ctx.lineWidth = rand(1, 2.5);
    ctx.beginPath();
    ctx.moveTo(rand(0, width), rand(0, height));
    ctx.bezierCurveTo(rand(0, width), rand(0, height), rand(0, width), rand(0, height), rand(0, width), rand(0, height));
    ctx.stroke();
  }
}

function drawGlyph(ctx: SKRSContext2D, glyph: Glyph): void {
  ctx.save();
  ctx.translate(glyph.box.x + glyph.box.w / 2, glyph.box.y + glyph.box.h / 2);
  ctx.rotate(glyph.angle);
  ctx.font = glyph.font;
  ctx.textAlign = "left";
  ctx.textBaseline = "alphabetic";
  ctx.lineJoin = "round";
  ctx.lineWidth = 3;
  ctx.strokeStyle = "rgba(255, 255, 255, 0.85)";
  ctx.strokeText(glyph.char, glyph.dx, glyph.dy);
  ctx.fillStyle = glyph.color;
  ctx.fillText(glyph.char, glyph.dx, glyph.dy);
  ctx.restore();
}

function drawForegroundNoise(ctx: SKRSContext2D, width: number, height: number): void {
  for (let i = 0; i < 3; i++) {
    ctx.strokeStyle = hsl(rand(0, 360), rand(30, 70), rand(35, 60), rand(0.35, 0.55));
    ctx.lineWidth = rand(0.8, 1.5);
    ctx.beginPath();
    ctx.moveTo(0, rand(0, height));
    ctx.quadraticCurveTo(rand(0, width), rand(0, height), width, rand(0, height));
    ctx.stroke();
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Draws a new captcha: the PNG and the target boxes in click order. */
export async function drawClickCaptcha(
  width = CAPTCHA_WIDTH,
  height = CAPTCHA_HEIGHT,
): Promise<{ text: string[]; png: Buffer; answer: CaptchaBox[] }> {
  ensureFont();
  const canvas = napiCanvas().createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  const chars = pickCharacters(CAPTCHA_TARGETS + CAPTCHA_DECOYS);
  const shapes = chars.map((char) => shapeGlyph(ctx, char));
  const boxes = place(shapes, width, height);
  const glyphs: Glyph[] = shapes.map(({ w: _w, h: _h, ...shape }, i) => {
    const box = boxes[i] as CaptchaBox;
    return { ...shape, box: { x: round1(box.x), y: round1(box.y), w: round1(box.w), h: round1(box.h) } };
  });

  drawBackground(ctx, width, height);
  for (const glyph of glyphs) drawGlyph(ctx, glyph);
  drawForegroundNoise(ctx, width, height);

  const targets = glyphs.slice(0, CAPTCHA_TARGETS);
  return { text: targets.map((g) => g.char), png: await canvas.encode("png"), answer: targets.map((g) => g.box) };
}

// ---------------------------------------------------------------------------------------------
// Storage and checks

/** Draws a captcha and stores its answer under `id` (replacing one stored before). */
export async function createClickCaptcha(db: Queryable, id: string): Promise<ClickCaptchaImage> {
  const { text, png, answer } = await drawClickCaptcha();
  const t = now();
  await deleteCaptchasExpiredBefore(db, t);
  await saveCaptcha(db, { id, answer: JSON.stringify(answer), width: CAPTCHA_WIDTH, height: CAPTCHA_HEIGHT, createTime: t, expireTime: t + CAPTCHA_TTL });
  observer?.(
    id,
    answer.map((b) => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 })),
    CAPTCHA_WIDTH,
    CAPTCHA_HEIGHT,
  );
  return {
    id,
    text,
    base64: `data:image/png;base64,${png.toString("base64")}`,
    width: CAPTCHA_WIDTH,
    height: CAPTCHA_HEIGHT,
  };
}

export interface ClickInfo {
  points: { x: number; y: number }[];
  renderedWidth: number;
  renderedHeight: number;
}

const NUMBER = String.raw`\d{1,6}(?:\.\d{1,20})?`;
const POINT = new RegExp(`^(${NUMBER}),(${NUMBER})$`);
const SIZE = new RegExp(`^${NUMBER}$`);

/** Parses `"x1,y1-x2,y2;renderedWidth;renderedHeight"`; null when malformed. */
export function parseClickInfo(info: unknown): ClickInfo | null {
  if (typeof info !== "string" || info.length === 0 || info.length > MAX_INFO_LENGTH) return null;
  const parts = info.split(";");
  if (parts.length !== 3) return null;
  const [xy = "", w = "", h = ""] = parts;
  if (!SIZE.test(w) || !SIZE.test(h)) return null;
  const renderedWidth = Number(w);
  const renderedHeight = Number(h);
  if (!(renderedWidth > 0 && renderedHeight > 0 && renderedWidth <= MAX_RENDERED_SIZE && renderedHeight <= MAX_RENDERED_SIZE)) return null;
  const points: ClickInfo["points"] = [];
  for (const pair of xy.split("-")) {
    const match = POINT.exec(pair);
    if (!match) return null;
    points.push({ x: Number(match[1]), y: Number(match[2]) });
  }
  return { points, renderedWidth, renderedHeight };
}

/** Every click (scaled back to image pixels) inside its target box, in order. */
export function clicksMatch(answer: readonly CaptchaBox[], width: number, height: number, info: ClickInfo): boolean {
  if (answer.length === 0 || info.points.length !== answer.length) return false;
  const sx = width / info.renderedWidth;
  const sy = height / info.renderedHeight;
  return info.points.every((point, i) => {
    const box = answer[i];
    if (!box) return false;
    const x = point.x * sx;
    const y = point.y * sy;
    return (
      x >= box.x - CLICK_TOLERANCE &&
      x <= box.x + box.w + CLICK_TOLERANCE &&
      y >= box.y - CLICK_TOLERANCE &&
      y <= box.y + box.h + CLICK_TOLERANCE
    );
  });
}

function toBoxes(answer: unknown): CaptchaBox[] {
  const value: unknown = typeof answer === "string" ? JSON.parse(answer) : answer;
  if (!Array.isArray(value)) return [];
  return value.filter(
    (b): b is CaptchaBox =>
      typeof b === "object" && b !== null && ["x", "y", "w", "h"].every((k) => typeof (b as Record<string, unknown>)[k] === "number"),
  );
}

const rowMatches = (row: CaptchaRow, info: ClickInfo) => clicksMatch(toBoxes(row.answer), row.width, row.height, info);

export type CaptchaCheck = "ok" | "unknown" | "used" | "expired" | "malformed" | "wrong";

/**
 * `checkClickCaptcha`: one try. Correct -> "ok" and the captcha is marked verified (kept for the
 * login or registration that follows) unless `unset`, then it is deleted. Anything else deletes
 * it, except a captcha already verified, which stays for the call that consumes it.
 */
export async function checkClickCaptcha(db: Queryable, id: string, info: string, unset: boolean): Promise<CaptchaCheck> {
  // Claiming the row (verified = true) first makes concurrent checks of one captcha one try.
  const row = await claimCaptcha(db, id);
  if (!row) {
    const expiry = await captchaExpiry(db, id);
    if (expiry === undefined) return "unknown";
    if (expiry >= now()) return "used";
    await deleteCaptcha(db, id);
    return "expired";
  }
  const parsed = parseClickInfo(info);
  const outcome: CaptchaCheck = row.expire_time < now() ? "expired" : !parsed ? "malformed" : rowMatches(row, parsed) ? "ok" : "wrong";
  if (outcome !== "ok" || unset) await deleteCaptcha(db, id);
  return outcome;
}

/**
 * For login and registration: true only if the captcha exists, has not expired and `info`
 * (the clicks the member made) is right. The row is deleted in every case: single use.
 */
export async function consumeClickCaptcha(db: Queryable, id: string, info: string): Promise<boolean> {
  if (!isCaptchaId(id)) return false;
  const row = await takeCaptcha(db, id);
  if (!row || row.expire_time < now()) return false;
  const parsed = parseClickInfo(info);
  return parsed !== null && rowMatches(row, parsed);
}
