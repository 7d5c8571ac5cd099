import { Trans, useLingui } from "@lingui/react/macro";
import { ChevronLeft, ChevronRight, ImageOff, RotateCcw, RotateCw, Scan, X, ZoomIn, ZoomOut, type LucideIcon } from "lucide-react";
import { Dialog, VisuallyHidden } from "radix-ui";
import { useEffect, useReducer, useRef, useState } from "react";
import type { KeyboardEvent, PointerEvent, Ref } from "react";
import {
  canNext,
  canPrev,
  clampIndex,
  imageTransform,
  initialState,
  previewReducer,
  thumbnailScrollTarget,
  zoomPercent,
} from "./state.ts";

export interface ImagePreviewerProps {
  images: string[];
  /** The image shown when the previewer opens (clamped into the list); 0 by default. */
  index?: number;
  open: boolean;
  onOpenChange(open: boolean): void;
}

/**
 * Full-screen image previewer (SPEC §2): thumbnails, previous/next, rotate, zoom 0.5..4 in 0.1
 * steps, reset, drag to move; closes on a click on the mask or Esc. Controlled: `open` and
 * `onOpenChange` as with any Radix dialog.
 */
export function ImagePreviewer({ images, index = 0, open, onOpenChange }: ImagePreviewerProps) {
  return (
    <Dialog.Root open={open && images.length > 0} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/80" />
        {/* Mounted only while open: each opening starts from `index`, as does a new `index`. */}
        <PreviewerContent key={index} images={images} startIndex={index} onClose={() => onOpenChange(false)} />
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Wheel distance (CSS pixels) per zoom step: one mouse notch, several small trackpad moves. */
const WHEEL_STEP_PX = 50;

function wheelPixels(e: WheelEvent): number {
  if (e.deltaMode === 1) return e.deltaY * 40; // lines
  if (e.deltaMode === 2) return e.deltaY * 800; // pages
  return e.deltaY;
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

interface DragStart {
  pointerId: number;
  clientX: number;
  clientY: number;
  x: number;
  y: number;
}

function PreviewerContent({ images, startIndex, onClose }: { images: string[]; startIndex: number; onClose(): void }) {
  const { t } = useLingui();
  const count = images.length;
  const [state, dispatch] = useReducer(previewReducer, undefined, () => initialState(startIndex, count));
  const index = clampIndex(state.index, count);
  const src = images[index] ?? "";
  const position = index + 1;
  const total = count;

  const contentRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const stripRef = useRef<HTMLUListElement>(null);
  const prevRef = useRef<HTMLButtonElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const drag = useRef<DragStart | null>(null);
  const maskPointerDown = useRef(false);
  const [dragging, setDragging] = useState(false);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  // Where focus returns on close. Radix returns it to a Dialog.Trigger, and the imperative API has none.
  const [returnFocus] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));

  // Mouse wheel zooms. A native listener: React's wheel listeners are passive, and the page
  // must neither scroll nor zoom underneath.
  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    let pending = 0;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      pending += wheelPixels(e);
      if (Math.abs(pending) < WHEEL_STEP_PX) return;
      dispatch({ type: pending < 0 ? "zoomIn" : "zoomOut" });
      pending = 0;
    };
    stage.addEventListener("wheel", onWheel, { passive: false });
    return () => stage.removeEventListener("wheel", onWheel);
  }, []);

  // SPEC §9: the strip scrolls so that the thumbnail THUMB_LEAD before the current one starts it.
  useEffect(() => {
    const strip = stripRef.current;
    const first = strip?.children[0];
    const target = strip?.children[thumbnailScrollTarget(index)];
    if (!strip || !(first instanceof HTMLElement) || !(target instanceof HTMLElement)) return;
    const left = target.offsetLeft - first.offsetLeft;
    if (typeof strip.scrollTo === "function") {
      strip.scrollTo({ left, behavior: prefersReducedMotion() ? "auto" : "smooth" });
    } else {
      strip.scrollLeft = left;
    }
  }, [index]);

  // Previous/next are disabled at the ends, and a disabled button loses focus (the browser may
  // already have moved it to the body): hand it to the other one, or the dialog, to keep it inside.
  const focusedIndex = useRef(index);
  useEffect(() => {
    if (focusedIndex.current === index) return; // not on opening: Radix places the first focus
    focusedIndex.current = index;
    const active = document.activeElement;
    const lost = !active || active === document.body || (active instanceof HTMLButtonElement && active.disabled);
    if (!lost) return;
    const prev = prevRef.current;
    const next = nextRef.current;
    const other = next?.disabled ? prev : prev?.disabled ? next : null;
    if (other && !other.disabled) other.focus();
    else contentRef.current?.focus();
  }, [index]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return; // browser shortcuts (Ctrl + +, ...) stay the browser's
    switch (e.key) {
      case "ArrowLeft":
        dispatch({ type: "prev" });
        break;
      case "ArrowRight":
        dispatch({ type: "next", count });
        break;
      case "+":
      case "=":
        dispatch({ type: "zoomIn" });
        break;
      case "-":
        dispatch({ type: "zoomOut" });
        break;
      case "0":
        dispatch({ type: "reset" });
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const onImagePointerDown = (e: PointerEvent<HTMLImageElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { pointerId: e.pointerId, clientX: e.clientX, clientY: e.clientY, x: state.x, y: state.y };
    setDragging(true);
  };
  const onImagePointerMove = (e: PointerEvent<HTMLImageElement>) => {
    const start = drag.current;
    if (!start || start.pointerId !== e.pointerId) return;
    dispatch({ type: "move", x: start.x + e.clientX - start.clientX, y: start.y + e.clientY - start.clientY });
  };
  const onImagePointerEnd = (e: PointerEvent<HTMLImageElement>) => {
    if (drag.current?.pointerId !== e.pointerId) return;
    drag.current = null;
    setDragging(false);
  };

  const hasPrev = canPrev(index);
  const hasNext = canNext(index, count);
  const percent = zoomPercent(state.zoom);
  const failed = failedSrc === src;

  return (
    <Dialog.Content
      ref={contentRef}
      className="fixed inset-0 z-50 flex flex-col text-white outline-none"
      onOpenAutoFocus={(e) => {
        // Focus the dialog itself: its name and "Image N of M" are announced, keys work at once.
        e.preventDefault();
        contentRef.current?.focus();
      }}
      onCloseAutoFocus={(e) => {
        if (!returnFocus?.isConnected || returnFocus === document.body) return;
        e.preventDefault();
        returnFocus.focus();
      }}
      onKeyDown={onKeyDown}
    >
      <VisuallyHidden.Root asChild>
        <Dialog.Title>
          <Trans>Image preview</Trans>
        </Dialog.Title>
      </VisuallyHidden.Root>

      <div className="flex items-center justify-between gap-2 bg-black/40 pb-1 pr-[max(0.5rem,env(safe-area-inset-right))] pl-[max(1rem,env(safe-area-inset-left))] pt-[max(0.25rem,env(safe-area-inset-top))]">
        <Dialog.Description aria-live="polite" className="text-sm font-medium tabular-nums">
          <Trans>
            Image {position} of {total}
          </Trans>
        </Dialog.Description>
        <Dialog.Close className={BUTTON_CLASS} aria-label={t`Close preview`} title={t`Close preview`}>
          <X aria-hidden className="size-6" />
        </Dialog.Close>
      </div>

      {/* The mask: a click on it (not on the image) closes, the wheel zooms. */}
      <div
        ref={stageRef}
        data-previewer-mask=""
        className="relative flex min-h-0 flex-1 items-center justify-center overflow-hidden p-4"
        onPointerDown={(e) => {
          maskPointerDown.current = e.target === e.currentTarget;
        }}
        onClick={(e) => {
          if (e.target === e.currentTarget && maskPointerDown.current) onClose();
          maskPointerDown.current = false;
        }}
      >
        {failed ? (
          <p role="alert" className="flex flex-col items-center gap-2 text-sm text-slate-200">
            <ImageOff aria-hidden className="size-10" />
            <Trans>The image could not be loaded.</Trans>
          </p>
        ) : (
          <img
            src={src}
            alt={t`Image ${position} of ${total}`}
            draggable={false}
            onError={() => setFailedSrc(src)}
            onPointerDown={onImagePointerDown}
            onPointerMove={onImagePointerMove}
            onPointerUp={onImagePointerEnd}
            onPointerCancel={onImagePointerEnd}
            style={{ transform: imageTransform(state) }}
            className={`max-h-full max-w-full touch-none select-none object-contain ${
              dragging ? "cursor-grabbing" : "cursor-grab motion-safe:transition-transform motion-safe:duration-200"
            }`}
          />
        )}
      </div>

      <div className="bg-black/40 pb-[max(0.5rem,env(safe-area-inset-bottom))]">
        <div role="group" aria-label={t`Image tools`} className="flex flex-wrap items-center justify-center gap-0.5 px-2 pt-1">
          <ToolButton ref={prevRef} label={t`Previous image`} disabled={!hasPrev} onClick={() => dispatch({ type: "prev" })} icon={ChevronLeft} iconClass="size-6" />
          <ToolButton label={t`Rotate left`} onClick={() => dispatch({ type: "rotateLeft" })} icon={RotateCcw} />
          <ToolButton label={t`Rotate right`} onClick={() => dispatch({ type: "rotateRight" })} icon={RotateCw} />
          <ToolButton label={t`Zoom out`} onClick={() => dispatch({ type: "zoomOut" })} icon={ZoomOut} />
          <output aria-label={t`Zoom level`} className="min-w-14 text-center text-sm font-medium tabular-nums">
            {percent}%
          </output>
          <ToolButton label={t`Zoom in`} onClick={() => dispatch({ type: "zoomIn" })} icon={ZoomIn} />
          <ToolButton label={t`Reset zoom`} onClick={() => dispatch({ type: "reset" })} icon={Scan} />
          <ToolButton ref={nextRef} label={t`Next image`} disabled={!hasNext} onClick={() => dispatch({ type: "next", count })} icon={ChevronRight} iconClass="size-6" />
        </div>

        {count > 1 && (
          <ul
            ref={stripRef}
            aria-label={t`Thumbnails`}
            className="relative flex gap-2 overflow-x-auto px-4 py-2 [scrollbar-width:thin]"
          >
            {images.map((image, i) => {
              const n = i + 1;
              const current = i === index;
              return (
                <li key={`${i}:${image}`} className="shrink-0">
                  <button
                    type="button"
                    aria-label={t`Show image ${n}`}
                    aria-current={current ? "true" : undefined}
                    onClick={() => dispatch({ type: "go", index: i, count })}
                    className={`block size-14 overflow-hidden rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white ${
                      current ? "ring-2 ring-primary" : "opacity-60 hover:opacity-100"
                    }`}
                  >
                    <img src={image} alt="" loading="lazy" draggable={false} className="size-full object-cover" />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Dialog.Content>
  );
}

/** 44 px tap target, visible focus ring on the dark mask. */
const BUTTON_CLASS =
  "inline-flex size-11 shrink-0 items-center justify-center rounded-full text-white hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent";

/** A tool of the bar: its icon (size-5 unless `iconClass` says otherwise), named by `label` for screen readers and as a tooltip. */
function ToolButton({
  label,
  disabled,
  onClick,
  icon: Icon,
  iconClass = "size-5",
  ref,
}: {
  label: string;
  disabled?: boolean;
  onClick(): void;
  icon: LucideIcon;
  iconClass?: string;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    <button ref={ref} type="button" className={BUTTON_CLASS} aria-label={label} title={label} disabled={disabled} onClick={onClick}>
      <Icon aria-hidden className={iconClass} />
    </button>
  );
}
