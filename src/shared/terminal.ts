import { z } from "zod";
import { DEFAULT_PORT } from "./constants.ts";

/** The terminal's wire conventions (SPEC §3, §4, §9; API.md "Terminal (SSE)"), shared by both sides. */

/** Task status (SPEC §4). */
export const TaskStatus = {
  Waiting: 0,
  Connecting: 1,
  Executing: 2,
  Success: 3,
  Failed: 4,
  Unknown: 5,
} as const;
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus];

/** Status lines of the stream; every other `data` is a line of output. */
export const TERMINAL_LINK_SUCCESS = "command-link-success";
export const TERMINAL_EXEC_SUCCESS = "command-exec-success";
export const TERMINAL_EXEC_ERROR = "command-exec-error";
export const TERMINAL_EXEC_COMPLETED = "command-exec-completed";

/** One server-sent event's JSON. */
export interface TerminalEvent {
  uuid: string;
  data: string;
  extend: string;
}

/** The package managers the terminal can run (SPEC §9: pnpm by default). */
export const PACKAGE_MANAGERS = ["npm", "pnpm", "yarn", "bun"] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];
export const DEFAULT_PACKAGE_MANAGER: PackageManager = "pnpm";
export const DEFAULT_TERMINAL_PORT = DEFAULT_PORT;

/** A command key: `group.variant` such as `version.node` or `install.pnpm`, never free text. */
export const COMMAND_KEY = /^[a-z][a-z-]{0,31}\.[a-z][a-z0-9-]{0,31}$/;
export const MAX_EXTEND_LENGTH = 200;

/** `GET /admin/ajax/terminal` query. */
export const terminalQuery = z.object({
  command: z.string().regex(COMMAND_KEY),
  uuid: z.string().regex(/^[0-9a-fA-F-]{36}$/),
  extend: z.string().max(MAX_EXTEND_LENGTH).default(""),
});

/** `POST /admin/ajax/changeTerminalConfig`: the package manager, the port, or both. */
export const terminalConfigBody = z
  .object({
    manager: z.enum(PACKAGE_MANAGERS).optional(),
    port: z.coerce.number().int().min(1).max(65535).optional(),
  })
  .refine((v) => v.manager !== undefined || v.port !== undefined, { message: "manager or port is required" });
export type TerminalConfigBody = z.infer<typeof terminalConfigBody>;

/** The `terminal` field of `GET /admin/index/index` (the framework's names). */
export interface TerminalIndex {
  installServicePort: string;
  npmPackageManager: PackageManager;
}
