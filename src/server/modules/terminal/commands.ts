import { PACKAGE_MANAGERS } from "../../../shared/terminal.ts";

/**
 * The terminal's allow-list (API.md "Terminal (SSE)"): a key names a program with a fixed
 * argument list and working folder. Nothing of the request reaches the command line; it runs
 * without a shell.
 */
export interface TerminalCommand {
  /** A program on PATH, or an absolute path. */
  program: string;
  args: readonly string[];
  /** The working folder, relative to the project folder (the one holding package.json). */
  cwd: string;
}

export type CommandTable = Readonly<Record<string, TerminalCommand>>;

/**
 * Every key the terminal accepts in production. `serverEntry` (how this server was started)
 * gives `migrate.run`: the same entry with `--migrate` applies the migrations to the configured
 * database (PostgreSQL; the embedded database is locked by the running server, which already
 * migrated it at start, and says so).
 */
export function terminalCommands(serverEntry?: { program: string; args: readonly string[] }): CommandTable {
  const table: Record<string, TerminalCommand> = {
    // The Node that runs this server, whatever PATH holds.
    "version.node": { program: process.execPath, args: ["--version"], cwd: "." },
  };
  if (serverEntry) table["migrate.run"] = { program: serverEntry.program, args: [...serverEntry.args, "--migrate"], cwd: "." };
  for (const pm of PACKAGE_MANAGERS) {
    table[`version.${pm}`] = { program: pm, args: ["--version"], cwd: "." };
    table[`install.${pm}`] = { program: pm, args: ["install"], cwd: "." };
    table[`web-build.${pm}`] = { program: pm, args: ["run", "build"], cwd: "." };
    table[`test.${pm}`] = { program: pm, args: ["run", "test"], cwd: "." };
  }
  return table;
}
