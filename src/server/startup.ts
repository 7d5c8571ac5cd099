/**
 * Start-up phases, for measuring what a start spends its time on: each phase is marked when it
 * ends (ms since the process started) and `STARTUP_PHASES=1` prints them on one line after the
 * server listens (tests/bench/run.mjs prints them beside `npm start`'s time).
 */
const marks: [name: string, at: number][] = [];

export function phase(name: string): void {
  marks.push([name, performance.now()]);
}

/** "config 41, modules 312, ..." in the order the phases ended, or "" when STARTUP_PHASES is not set. */
export function phasesLine(env: Record<string, string | undefined> = process.env): string {
  if (env.STARTUP_PHASES !== "1") return "";
  return `Start-up phases (ms since the process started): ${marks.map(([name, at]) => `${name} ${Math.round(at)}`).join(", ")}\n`;
}
