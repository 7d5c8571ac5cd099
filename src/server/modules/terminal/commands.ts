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

/** Every key the terminal accepts in production. */
export function terminalCommands(): CommandTable {
  const table: Record<string, TerminalCommand> = {
    // The Node that runs this server, whatever PATH holds.
    "version.node": { program: process.execPath, args: ["--version"], cwd: "." },
  };
  for (const pm of PACKAGE_MANAGERS) {
    table[`version.${pm}`] = { program: pm, args: ["--version"], cwd: "." };
    table[`install.${pm}`] = { program: pm, args: ["install"], cwd: "." };
    table[`web-build.${pm}`] = { program: pm, args: ["run", "build"], cwd: "." };
    table[`test.${pm}`] = { program: pm, args: ["run", "test"], cwd: "." };
  }
  return table;
}
