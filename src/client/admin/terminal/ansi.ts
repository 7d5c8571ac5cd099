/**
 * A small reader of ANSI SGR escapes (colours, bold, italic, underline) in one line of command
 * output: the line becomes styled pieces, the escapes are never shown. Other control sequences
 * (cursor moves, erase line, window titles) are dropped; a carriage return keeps what was
 * written after it, as a terminal shows a progress line.
 */

export interface AnsiStyle {
  /** CSS colours. */
  color?: string;
  background?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
}

export interface AnsiPiece {
  text: string;
  style: AnsiStyle;
}

/** The 16 colours, readable on the panel's dark background. */
const BASIC = ["#4b5563", "#f87171", "#4ade80", "#facc15", "#60a5fa", "#e879f9", "#22d3ee", "#e5e7eb"];
const BRIGHT = ["#9ca3af", "#fca5a5", "#86efac", "#fde047", "#93c5fd", "#f0abfc", "#67e8f9", "#ffffff"];

/** xterm's 256-colour palette. */
function color256(n: number): string | undefined {
  if (!Number.isInteger(n) || n < 0 || n > 255) return undefined;
  if (n < 8) return BASIC[n];
  if (n < 16) return BRIGHT[n - 8];
  if (n < 232) {
    const i = n - 16;
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    return `rgb(${level(Math.floor(i / 36))}, ${level(Math.floor(i / 6) % 6)}, ${level(i % 6)})`;
  }
  const gray = 8 + (n - 232) * 10;
  return `rgb(${gray}, ${gray}, ${gray})`;
}

/** `38;5;n` or `38;2;r;g;b` from `codes` at `i`: the colour and how many codes it took. */
function extended(codes: number[], i: number): [string | undefined, number] {
  if (codes[i + 1] === 5) return [color256(codes[i + 2] ?? -1), 3];
  if (codes[i + 1] === 2) {
    const [r, g, b] = [codes[i + 2], codes[i + 3], codes[i + 4]];
    const ok = [r, g, b].every((v) => v !== undefined && v >= 0 && v <= 255);
    return [ok ? `rgb(${r}, ${g}, ${b})` : undefined, 5];
  }
  return [undefined, 1];
}

function applySgr(style: AnsiStyle, params: string): AnsiStyle {
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
  let next: AnsiStyle = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c === 0) next = {};
    else if (c === 1) next.bold = true;
    else if (c === 2) next.dim = true;
    else if (c === 3) next.italic = true;
    else if (c === 4) next.underline = true;
    else if (c === 22) next = { ...next, bold: undefined, dim: undefined };
    else if (c === 23) next.italic = undefined;
    else if (c === 24) next.underline = undefined;
    else if (c >= 30 && c <= 37) next.color = BASIC[c - 30];
    else if (c >= 90 && c <= 97) next.color = BRIGHT[c - 90];
    else if (c === 39) next.color = undefined;
    else if (c >= 40 && c <= 47) next.background = BASIC[c - 40];
    else if (c >= 100 && c <= 107) next.background = BRIGHT[c - 100];
    else if (c === 49) next.background = undefined;
    else if (c === 38 || c === 48) {
      const [value, used] = extended(codes, i);
      if (c === 38) next.color = value;
      else next.background = value;
      i += used - 1;
    }
  }
  return Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) as AnsiStyle;
}

// CSI sequences (ESC [ ... final byte), OSC sequences (ESC ] ... BEL or ESC \), and lone ESC + one character.
// eslint-disable-next-line no-control-regex -- escapes are what this reads
const ESCAPE = /\u001b\[([0-9;:?]*)([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]?/g;

/** One line of output -> styled pieces (empty pieces left out). */
export function parseAnsi(line: string, initial: AnsiStyle = {}): AnsiPiece[] {
  // What a carriage return overwrote is gone (a trailing one changes nothing).
  const cr = line.replace(/\r+$/, "").lastIndexOf("\r");
  const text = cr === -1 ? line.replace(/\r+$/, "") : line.slice(cr + 1);
  const pieces: AnsiPiece[] = [];
  let style = initial;
  let last = 0;
  for (const match of text.matchAll(ESCAPE)) {
    if (match.index > last) pieces.push({ text: text.slice(last, match.index), style });
    if (match[2] === "m") style = applySgr(style, match[1] ?? "");
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), style });
  return pieces;
}
