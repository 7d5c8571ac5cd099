/**
 * Pure state of the image previewer (SPEC §2 "Image previewer", §5 and §9): which image is
 * shown, and how it is zoomed, rotated and moved. No React, no DOM.
 */

/** SPEC §9: zoom 0.5 to 4 in steps of 0.1, rotation in 90-degree steps. */
export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 4;
export const ZOOM_STEP = 0.1;
export const ROTATE_STEP = 90;
/** SPEC §9: the thumbnail strip scrolls so that the item this many before the current one starts it. */
export const THUMB_LEAD = 4;

export interface PreviewState {
  /** Index of the shown image (always within the list). */
  index: number;
  /** Scale factor, ZOOM_MIN..ZOOM_MAX, one decimal. */
  zoom: number;
  /** Degrees, accumulated in ROTATE_STEP steps (not wrapped, so transitions turn the short way). */
  rotation: number;
  /** Drag offset in CSS pixels. */
  x: number;
  y: number;
}

export type PreviewAction =
  | { type: "prev" }
  | { type: "next"; count: number }
  | { type: "go"; index: number; count: number }
  | { type: "zoomIn" }
  | { type: "zoomOut" }
  | { type: "rotateLeft" }
  | { type: "rotateRight" }
  | { type: "reset" }
  | { type: "move"; x: number; y: number };

/** Rounds to one decimal, so repeated 0.1 steps never drift (1.1 + 0.1 is 1.2, not 1.2000000000000002). */
export function roundZoom(zoom: number): number {
  return Math.round(zoom * 10) / 10;
}

/** Keeps a zoom inside ZOOM_MIN..ZOOM_MAX, rounded to one decimal. */
export function clampZoom(zoom: number): number {
  if (Number.isNaN(zoom)) return 1;
  return roundZoom(Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom)));
}

/** One step in (`direction` 1) or out (-1). */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  return clampZoom(roundZoom(zoom) + direction * ZOOM_STEP);
}

/** One quarter turn left (-1) or right (1). */
export function rotate(rotation: number, direction: 1 | -1): number {
  return rotation + direction * ROTATE_STEP;
}

/**
 * Clamps an index into a list of `count` items (no wrapping: previous at the first image and next
 * at the last stay put). Non-numbers become 0, fractions are truncated.
 */
export function clampIndex(index: number, count: number): number {
  if (count <= 0 || !Number.isFinite(index)) return 0;
  return Math.min(count - 1, Math.max(0, Math.trunc(index)));
}

/** Whether previous / next can move from `index` in a list of `count`. */
export function canPrev(index: number): boolean {
  return index > 0;
}
export function canNext(index: number, count: number): boolean {
  return index < count - 1;
}

/** Index of the thumbnail the strip scrolls to the start: max(0, current - THUMB_LEAD). */
export function thumbnailScrollTarget(index: number): number {
  return Math.max(0, index - THUMB_LEAD);
}

/** The view of a freshly shown image: 100 %, upright, centred. */
const VIEW_RESET = { zoom: 1, rotation: 0, x: 0, y: 0 } as const;

export function initialState(index: number, count: number): PreviewState {
  return { index: clampIndex(index, count), ...VIEW_RESET };
}

/** Moving to another image also resets the view of the new one. */
function show(state: PreviewState, index: number): PreviewState {
  return index === state.index ? state : { index, ...VIEW_RESET };
}

export function previewReducer(state: PreviewState, action: PreviewAction): PreviewState {
  switch (action.type) {
    case "prev":
      return show(state, Math.max(0, state.index - 1));
    case "next":
      return show(state, clampIndex(state.index + 1, action.count));
    case "go":
      return show(state, clampIndex(action.index, action.count));
    case "zoomIn":
      return { ...state, zoom: stepZoom(state.zoom, 1) };
    case "zoomOut":
      return { ...state, zoom: stepZoom(state.zoom, -1) };
    case "rotateLeft":
      return { ...state, rotation: rotate(state.rotation, -1) };
    case "rotateRight":
      return { ...state, rotation: rotate(state.rotation, 1) };
    case "reset":
      return { ...state, ...VIEW_RESET };
    case "move":
      return { ...state, x: action.x, y: action.y };
  }
}

/** The CSS transform of the shown image: drag offset, then rotation, then zoom. */
export function imageTransform(state: Pick<PreviewState, "zoom" | "rotation" | "x" | "y">): string {
  return `translate(${state.x}px, ${state.y}px) rotate(${state.rotation}deg) scale(${state.zoom})`;
}

/** The zoom as a whole percentage (1.1 -> 110). */
export function zoomPercent(zoom: number): number {
  return Math.round(zoom * 100);
}
