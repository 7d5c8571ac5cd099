import { Trans, useLingui } from "@lingui/react/macro";
import { DropdownMenu } from "radix-ui";
import { CheckCircle2, Gauge, Keyboard, Maximize, Minimize, Pause, Play, Redo2, Undo2, Volume2, VolumeX } from "lucide-react";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { formatClock } from "../../ui/format.ts";
import { SPEEDS, speedLabel, type PlayerAction } from "./controls.ts";

/** The toolbar's controls: compact, and light on the black of full screen (so not the ghost variant's colours). */
const controlClass =
  "inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-md px-2.5 text-sm text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800";

/** What the video element is doing, as the control bar shows it. */
export interface Playback {
  /** Position and length of the video, seconds. */
  time: number;
  length: number;
  paused: boolean;
  muted: boolean;
  rate: number;
}

export interface ControlBarProps {
  playback: Playback;
  /** The player's frame while it is full screen (the speed menu opens inside it then), else null. */
  fullscreenFrame: HTMLElement | null;
  /** What screen readers are told after a shortcut or button (a polite status). */
  announce: string;
  onAction: (action: PlayerAction) => void;
  /** The member moved the position slider to `seconds`. */
  onSeekTo: (seconds: number) => void;
  /** The member picked a speed in the menu. */
  onSpeed: (rate: number) => void;
}

/**
 * The app's one control bar of a lesson video: position slider, play, 10 s back and forward,
 * speed, sound, full screen, all reachable by keyboard and named for screen readers.
 */
export function ControlBar({ playback, fullscreenFrame, announce, onAction, onSeekTo, onSpeed }: ControlBarProps) {
  const { time, length, paused, muted, rate } = playback;
  const { t } = useLingui();
  const fullscreen = fullscreenFrame !== null;
  const rateText = speedLabel(rate);
  const timeText = formatClock(time);
  const lengthText = formatClock(length);
  const sliderMax = Math.max(1, Math.floor(length));
  const onDark = fullscreen ? "text-white hover:bg-white/15 dark:hover:bg-white/15" : "";
  const button = `${controlClass} ${onDark}`;
  return (
    <div role="toolbar" aria-label={t`Video controls`} className={`flex flex-wrap items-center gap-1 ${fullscreen ? "bg-black/90 px-3 pb-2" : ""}`}>
      <div className="flex basis-full items-center gap-3 px-1">
        <span className="text-sm tabular-nums" aria-hidden>
          {timeText}
        </span>
        <input
          type="range"
          min={0}
          max={sliderMax}
          step={1}
          value={Math.min(sliderMax, Math.floor(time))}
          aria-label={t`Playback position`}
          aria-valuetext={t`${timeText} of ${lengthText}`}
          onChange={(event) => onSeekTo(Number(event.target.value))}
          className="h-11 min-w-0 flex-1 cursor-pointer rounded accent-primary outline-none focus-visible:ring-2 focus-visible:ring-primary"
        />
        <span className="text-sm tabular-nums" aria-hidden>
          {lengthText}
        </span>
      </div>
      <Button variant="bare" onClick={() => onAction({ kind: "toggle" })} className={button} aria-label={paused ? t`Play` : t`Pause`}>
        {paused ? <Play aria-hidden className="size-5" /> : <Pause aria-hidden className="size-5" />}
      </Button>
      <Button variant="bare" onClick={() => onAction({ kind: "seek", by: -10 })} className={button} aria-label={t`Back 10 seconds`}>
        <Undo2 aria-hidden className="size-5" />
        <span aria-hidden>10</span>
      </Button>
      <Button variant="bare" onClick={() => onAction({ kind: "seek", by: 10 })} className={button} aria-label={t`Forward 10 seconds`}>
        <Redo2 aria-hidden className="size-5" />
        <span aria-hidden>10</span>
      </Button>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger className={buttonClass("bare", button)} aria-label={t`Playback speed: ${rateText}`}>
          <Gauge aria-hidden className="size-5" />
          <span aria-hidden>{rateText}</span>
        </DropdownMenu.Trigger>
        {/* In full screen only the frame is shown: the menu opens inside it. */}
        <DropdownMenu.Portal container={fullscreenFrame ?? undefined}>
          <DropdownMenu.Content sideOffset={4} className="z-50 min-w-32 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
            <DropdownMenu.RadioGroup value={String(rate)} onValueChange={(value) => onSpeed(Number(value))}>
              {SPEEDS.map((speed) => (
                <DropdownMenu.RadioItem
                  key={speed}
                  value={String(speed)}
                  className="flex min-h-11 cursor-pointer items-center gap-2 rounded px-3 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800"
                >
                  <span className="w-4">
                    <DropdownMenu.ItemIndicator>
                      <CheckCircle2 aria-hidden className="size-4 text-primary" />
                    </DropdownMenu.ItemIndicator>
                  </span>
                  {speedLabel(speed)}
                </DropdownMenu.RadioItem>
              ))}
            </DropdownMenu.RadioGroup>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <Button variant="bare" onClick={() => onAction({ kind: "mute" })} className={button} aria-label={muted ? t`Unmute` : t`Mute`} aria-pressed={muted}>
        {muted ? <VolumeX aria-hidden className="size-5" /> : <Volume2 aria-hidden className="size-5" />}
      </Button>
      <Button variant="bare" onClick={() => onAction({ kind: "fullscreen" })} className={button} aria-label={fullscreen ? t`Exit full screen` : t`Full screen`}>
        {fullscreen ? <Minimize aria-hidden className="size-5" /> : <Maximize aria-hidden className="size-5" />}
      </Button>
      <p role="status" className="sr-only">
        {announce}
      </p>
    </div>
  );
}

/** The list of keyboard shortcuts under the player (hidden in full screen); `id` describes the video. */
export function ShortcutHelp({ id, hidden }: { id: string; hidden: boolean }) {
  const { t } = useLingui();
  return (
    <details id={id} hidden={hidden} className="text-sm text-slate-600 dark:text-slate-300">
      <summary className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-md px-1 outline-none focus-visible:ring-2 focus-visible:ring-primary">
        <Keyboard aria-hidden className="size-4" />
        <Trans>Keyboard shortcuts</Trans>
      </summary>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 pl-1">
        <dt><kbd>{t`Space`}</kbd> / <kbd>K</kbd></dt>
        <dd>{t`Play or pause`}</dd>
        <dt><kbd>←</kbd> / <kbd>→</kbd></dt>
        <dd>{t`Back or forward 5 seconds`}</dd>
        <dt><kbd>J</kbd> / <kbd>L</kbd></dt>
        <dd>{t`Back or forward 10 seconds`}</dd>
        <dt><kbd>&lt;</kbd> / <kbd>&gt;</kbd></dt>
        <dd>{t`Slower or faster`}</dd>
        <dt><kbd>F</kbd></dt>
        <dd>{t`Full screen`}</dd>
        <dt><kbd>M</kbd></dt>
        <dd>{t`Mute or unmute`}</dd>
      </dl>
    </details>
  );
}
