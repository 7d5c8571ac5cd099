import type * as napiCanvasModule from "@napi-rs/canvas";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { imageSize } from "image-size";
import { faceHumanConfig } from "../../../shared/exam/face.ts";
import { lazyRequire } from "../../lazy.ts";

const napiCanvas = lazyRequire<typeof napiCanvasModule>("@napi-rs/canvas");

/**
 * The server's face check: `@vladmandic/human`'s Node build on the WASM backend
 * (`@tensorflow/tfjs-backend-wasm`), the same models as the browser's. Loaded on the first check
 * (about 0.4 s and 150 MB), then kept; checks run one at a time (one Human instance).
 *
 * Two quirks, both handled here: the package's `exports` map lists its dist files without "./",
 * so Node only resolves its default (tfjs-node) build and the WASM build is loaded by file path;
 * and Human loads models with `fetch`, which in Node refuses `file:` URLs, so fetch answers
 * `file:` URLs under the models and WASM folders from disk (and nothing else changes).
 */

const require = createRequire(import.meta.url);
/** node_modules/@vladmandic/human/dist (the default export resolves into it). */
const humanDist = path.dirname(require.resolve("@vladmandic/human"));
export const MODELS_DIR = path.resolve(humanDist, "../models");
export const WASM_DIR = path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm"));

/** The part of Human's API used here (its own types pull in the DOM). */
interface Tensor {
  readonly shape: number[];
}
interface HumanFace {
  score: number;
  embedding?: number[];
  real?: number;
  live?: number;
}
interface HumanInstance {
  load(): Promise<void>;
  warmup(): Promise<unknown>;
  detect(input: Tensor): Promise<{ face: HumanFace[] }>;
  match: { similarity(a: number[], b: number[]): number };
  tf: {
    tensor3d(values: Uint8Array, shape: [number, number, number], dtype: "int32"): Tensor;
    slice(t: Tensor, begin: number[], size: number[]): Tensor;
    expandDims(t: Tensor, axis: number): Tensor;
    dispose(t: Tensor[]): void;
    getBackend(): string;
  };
}

/** One face as the server saw it. */
export interface SeenFace {
  score: number;
  embedding: number[];
  /** The liveness model's score 0..1. */
  live: number;
}

export interface Analysis {
  faces: SeenFace[];
  ms: number;
}

/** Largest side an image is scaled to before detection (the models work at 256 px or less). */
const MAX_SIDE = 640;

let loading: Promise<HumanInstance> | null = null;
let queue: Promise<unknown> = Promise.resolve();

function patchFetchForFiles(): void {
  const roots = [MODELS_DIR, WASM_DIR].map((d) => pathToFileURL(d).href);
  const original = globalThis.fetch;
  if ((original as { faceFiles?: boolean }).faceFiles) return;
  const patched = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith("file:") && roots.some((r) => url.startsWith(r))) return new Response(new Uint8Array(await readFile(new URL(url))));
    return original(input, init);
  };
  globalThis.fetch = Object.assign(patched, { faceFiles: true }) as typeof fetch;
}

async function createHuman(): Promise<HumanInstance> {
  patchFetchForFiles();
  const { Human } = require(path.join(humanDist, "human.node-wasm.js")) as { Human: new (config: object) => HumanInstance };
  const human = new Human(faceHumanConfig({ models: `${pathToFileURL(MODELS_DIR).href}/`, wasm: `${pathToFileURL(WASM_DIR).href}/` }, { liveness: true }));
  await human.load();
  if (human.tf.getBackend() !== "wasm") throw new Error(`face check: the WASM backend did not start (backend: ${human.tf.getBackend()})`);
  return human;
}

function engine(): Promise<HumanInstance> {
  loading ??= createHuman().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** Loads the models now (e.g. at start-up or before a benchmark); later checks skip the load. */
export async function warmFaceEngine(): Promise<void> {
  await engine();
}

/** Thrown when the bytes are not an image the server can decode. */
export class BadImageError extends Error {}

/**
 * Largest picture decoded, in pixels (width × height): 4096 × 4096 = 16.8 Mpx. A decoder
 * allocates 4 bytes a pixel whatever the file's size (a 48 KB PNG of 20000 × 20000 pixels held
 * the server 7 s and raised its RSS by 510 MB), so the size is read from the header first and a
 * larger picture is never decoded: at most 64 MiB of pixels. A camera snapshot is 640 × 480
 * (0.3 Mpx) and a phone's photo 12 Mpx (4032 × 3024); the check scales to 640 px anyway.
 */
export const MAX_IMAGE_PIXELS = 4096 * 4096;

/** Thrown (before decoding) when a picture has more than MAX_IMAGE_PIXELS pixels. */
export class ImageTooLargeError extends Error {
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(`picture of ${width} x ${height} pixels`);
  }
}

/** The formats decoded (what the device and the staff form send). */
const DECODED_TYPES = new Set(["jpg", "png", "webp"]);

/**
 * A picture's width and height from its header (image-size reads no pixel), or BadImageError
 * when it is not a JPEG, PNG or WebP whose size can be read, or ImageTooLargeError.
 */
export function pictureSize(bytes: Uint8Array): { width: number; height: number } {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    throw new BadImageError("not an image");
  }
  const { width, height, type } = size;
  if (!type || !DECODED_TYPES.has(type) || !(width > 0) || !(height > 0)) throw new BadImageError("not a JPEG, PNG or WebP");
  if (width * height > MAX_IMAGE_PIXELS) throw new ImageTooLargeError(width, height);
  return { width, height };
}

/** The faces in an image (JPEG, PNG or WebP bytes, at most MAX_IMAGE_PIXELS), one check at a time. */
export function analyseImage(bytes: Uint8Array): Promise<Analysis> {
  const run = queue.then(async () => {
    // Measured before anything is decoded (or the models loaded): throws for a picture too large.
    pictureSize(bytes);
    const human = await engine();
    let image;
    try {
      image = await napiCanvas().loadImage(Buffer.from(bytes));
    } catch {
      throw new BadImageError("not an image");
    }
    const started = performance.now();
    const scale = Math.min(1, MAX_SIDE / Math.max(image.width, image.height));
    const width = Math.max(1, Math.round(image.width * scale));
    const height = Math.max(1, Math.round(image.height * scale));
    const canvas = napiCanvas().createCanvas(width, height);
    const ctx = canvas.getContext("2d");
    ctx.drawImage(image, 0, 0, width, height);
    const rgba = ctx.getImageData(0, 0, width, height).data;
    const t4 = human.tf.tensor3d(new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.byteLength), [height, width, 4], "int32");
    const t3 = human.tf.slice(t4, [0, 0, 0], [-1, -1, 3]);
    const batch = human.tf.expandDims(t3, 0);
    try {
      const result = await human.detect(batch);
      const faces = result.face.map((f) => ({ score: f.score, embedding: Array.from(f.embedding ?? []), live: f.live ?? 0 }));
      return { faces, ms: Math.round(performance.now() - started) };
    } finally {
      human.tf.dispose([t4, t3, batch]);
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

/** Similarity 0..1 of two face descriptors (Human's own measure, as the browser computes it). */
export async function faceSimilarity(a: readonly number[], b: readonly number[]): Promise<number> {
  const human = await engine();
  return human.match.similarity([...a], [...b]);
}
