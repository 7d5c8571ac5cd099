import { serverRefusal } from "../../api/index.ts";

/**
 * How the account screens write amounts (the logs' tables, the overview's figures): apart from
 * LogTable.tsx so that the overview does not load the log's table code with them.
 */

/** A log amount as text, `decimals` places (the raw value when it is not a number). */
export function formatAmount(value: string | number | undefined, decimals: number): string {
  const n = typeof value === "number" ? value : Number(value);
  if (value === undefined || value === "" || !Number.isFinite(n)) return String(value ?? "");
  return n.toFixed(decimals);
}

/**
 * A change with its sign spelled out (so colour is never the only cue): `+5.00`, `−5.00`
 * (U+2212 minus), `0.00`; `sign` is 1, -1 or 0.
 */
export function signedAmount(value: string | number | undefined, decimals: number): { sign: 1 | -1 | 0; text: string } {
  const n = typeof value === "number" ? value : Number(value);
  if (value === undefined || value === "" || !Number.isFinite(n)) return { sign: 0, text: String(value ?? "") };
  const abs = Math.abs(n).toFixed(decimals);
  if (Number(abs) === 0) return { sign: 0, text: abs };
  return n > 0 ? { sign: 1, text: `+${abs}` } : { sign: -1, text: `\u2212${abs}` };
}

/** The server's message of a refused request (an envelope), if any. */
export function serverMessage(error: unknown): string | undefined {
  return serverRefusal(error)?.msg || undefined;
}
