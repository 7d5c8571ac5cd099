/**
 * The device's own look at a snapshot, with `@vladmandic/human` (browser build, WASM backend):
 * how many faces, and the descriptor. Loaded on demand only (a dynamic import: never in the
 * first-load bundle), its models and WASM from our own origin (/face-models/, /face-wasm/), which
 * the service worker keeps once loaded (sw.ts). Only a hint: the server judges every snapshot
 * again and its verdict counts.
 */

import { faceHumanConfig } from "../../../shared/exam/face.ts";

export type DeviceLook = { verdict: "one_face" | "no_face" | "many_faces"; faces: number } | { verdict: "unavailable"; faces: null };

interface BrowserHuman {
  load(): Promise<void>;
  detect(input: HTMLCanvasElement): Promise<{ face: { embedding?: number[] }[] }>;
}

let loading: Promise<BrowserHuman> | null = null;

async function createHuman(): Promise<BrowserHuman> {
  const { Human } = await import("@vladmandic/human");
  const human = new Human(faceHumanConfig({ models: "/face-models/", wasm: "/face-wasm/" }, { liveness: false }) as never) as unknown as BrowserHuman;
  await human.load();
  return human;
}

/** Starts loading the detector (e.g. when a screen with a camera opens). */
export function preloadDetector(): Promise<BrowserHuman> {
  loading ??= createHuman().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** The faces on a frame; "unavailable" when the detector cannot load or run within `ms`. */
export async function lookAt(frame: HTMLCanvasElement, ms = 20_000): Promise<DeviceLook> {
  try {
    const human = await Promise.race([preloadDetector(), new Promise<never>((_, reject) => window.setTimeout(() => reject(new Error("timeout")), ms))]);
    const { face } = await human.detect(frame);
    return { verdict: face.length === 0 ? "no_face" : face.length > 1 ? "many_faces" : "one_face", faces: face.length };
  } catch {
    return { verdict: "unavailable", faces: null };
  }
}
