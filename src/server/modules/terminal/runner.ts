import { spawn, type ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import type { Readable } from "node:stream";
import type { TerminalCommand } from "./commands.ts";

/** Longest line passed on; the rest of a longer one is cut. */
const MAX_LINE = 4096;
/** How long a stopped command has between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 3000;

export type RunEnd =
  | { kind: "exit"; code: number | null; signal: NodeJS.Signals | null }
  | { kind: "spawn-error"; code: string; message: string }
  | { kind: "timeout" }
  | { kind: "stopped" };

export interface RunHandlers {
  /** Started: the program exists and runs. */
  onStart(pid: number): void;
  onLine(line: string): void;
  /** Called once, when the process is gone (or never started). */
  onEnd(end: RunEnd): void;
}

export interface Run {
  /** Ends the command and everything it started (its process group). */
  stop(): void;
  readonly pid: number | undefined;
}

/** Splits a stream into lines as its bytes arrive (UTF-8 safe), the last partial line on end. */
function lines(stream: Readable, onLine: (line: string) => void): void {
  const decoder = new StringDecoder("utf8");
  let rest = "";
  const emit = (line: string) => onLine(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line);
  stream.on("data", (chunk: Buffer) => {
    const parts = (rest + decoder.write(chunk)).split("\n");
    rest = parts.pop() ?? "";
    for (const part of parts) emit(part.replace(/\r$/, ""));
    if (rest.length > MAX_LINE * 4) {
      emit(rest);
      rest = "";
    }
  });
  stream.on("end", () => {
    const last = rest + decoder.end();
    if (last !== "") emit(last.replace(/\r$/, ""));
  });
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // detached: the child leads its own process group, so `npm run build` takes vite with it.
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Runs one allow-listed command: spawned without a shell, in its own process group, output
 * line by line (stdout and stderr alike), ended after `timeoutMs`.
 */
export function runCommand(command: TerminalCommand, cwd: string, timeoutMs: number, handlers: RunHandlers): Run {
  let ended = false;
  let reason: RunEnd | null = null;
  const end = (result: RunEnd) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    clearTimeout(killTimer);
    handlers.onEnd(result);
  };
  let killTimer: NodeJS.Timeout | undefined;
  const stop = (why: RunEnd) => {
    if (ended || reason) return;
    reason = why;
    signalGroup(child, "SIGTERM");
    killTimer = setTimeout(() => signalGroup(child, "SIGKILL"), KILL_GRACE_MS);
  };

  const child = spawn(command.program, [...command.args], {
    cwd,
    shell: false,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    // Colours for tools that ask for a terminal; the panel shows them.
    env: { ...process.env, FORCE_COLOR: "1" },
  });
  const timer = setTimeout(() => stop({ kind: "timeout" }), timeoutMs);
  child.on("spawn", () => handlers.onStart(child.pid!));
  child.on("error", (error: NodeJS.ErrnoException) => {
    // Spawn failures (ENOENT: not installed) end here; a failed kill of a live child does not.
    if (child.pid === undefined) end({ kind: "spawn-error", code: error.code ?? "", message: error.message });
  });
  lines(child.stdout!, (line) => !ended && handlers.onLine(line));
  lines(child.stderr!, (line) => !ended && handlers.onLine(line));
  child.on("close", (code, signal) => end(reason ?? { kind: "exit", code, signal }));

  return {
    stop: () => stop({ kind: "stopped" }),
    get pid() {
      return child.pid;
    },
  };
}
