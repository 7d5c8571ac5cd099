import path from "node:path";
import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { jsonBody } from "../../../shared/schema.ts";
import {
  PACKAGE_MANAGERS,
  TERMINAL_EXEC_COMPLETED,
  TERMINAL_EXEC_ERROR,
  TERMINAL_EXEC_SUCCESS,
  TERMINAL_LINK_SUCCESS,
  terminalConfigBody,
  terminalQuery,
  type PackageManager,
  type TerminalEvent,
  type TerminalIndex,
} from "../../../shared/terminal.ts";
import { logTitle, writeAdminLog } from "../../crud/log.ts";
import type { Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { getSettings, setSetting } from "../../settings.ts";
import { SUPER_ADMIN_RULE } from "../admin/access.ts";
import { terminalCommands, type CommandTable } from "./commands.ts";
import { runCommand, type Run, type RunEnd } from "./runner.ts";

/**
 * The terminal (SPEC §1, §4; API.md "Terminal (SSE)"), for super admins only:
 * `GET /admin/ajax/terminal?command=<key>&uuid=<uuid>&extend=` runs one allow-listed command
 * and streams its output as server-sent events `{uuid, data, extend}`: `command-link-success`
 * once it runs, each output line, then `command-exec-success` or `command-exec-error`, then
 * `command-exec-completed`. Refusals (unknown key, not a super admin, another command running)
 * are envelopes, not streams. One command at a time; a time limit; the command is stopped when
 * the client goes away. Every run is written to the admin log.
 * `POST /admin/ajax/changeTerminalConfig {manager?, port?}` stores the package manager and port.
 */

export interface TerminalOptions {
  /** Extra allow-listed commands (tests only: buildApp's deps; never set in production). */
  extraCommands?: CommandTable;
  /** The folder commands run in (relative `cwd`s resolve against it): the project folder. */
  projectDir: string;
  /** Longest run, ms. */
  timeoutMs: number;
  /** How this server was started (gives `migrate.run`). */
  serverEntry?: { program: string; args: readonly string[] };
}

const title = logTitle(msg`Terminal`);
const HEARTBEAT_MS = 15_000;

/** The `terminal` field of the back office's start data. */
export async function terminalIndex(db: Queryable): Promise<TerminalIndex> {
  const s = await getSettings(db, ["terminal_package_manager", "terminal_port"]);
  const manager = (PACKAGE_MANAGERS as readonly string[]).includes(s.terminal_package_manager) ? s.terminal_package_manager : "pnpm";
  return { installServicePort: String(s.terminal_port), npmPackageManager: manager as PackageManager };
}

export async function terminalRoutes(app: FastifyInstance, options: TerminalOptions): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const commands: CommandTable = { ...terminalCommands(options.serverEntry), ...options.extraCommands };
  /** The one command running in this process, if any. */
  let current: { run: Run | null } | null = null;

  app.addHook("preClose", async () => {
    current?.run?.stop();
  });

  api.get("/admin/ajax/terminal", { config: { adminRule: SUPER_ADMIN_RULE }, schema: { querystring: terminalQuery } }, async (req, reply) => {
    const { command, uuid, extend } = req.query;
    const spec = Object.hasOwn(commands, command) ? commands[command] : undefined;
    if (!spec) throw new ApiError(msg`Unknown command: ${command}`);
    if (current) throw new ApiError(msg`Another command is running: wait until it has finished`);
    const slot: { run: Run | null } = { run: null };
    current = slot;
    try {
      await writeAdminLog(db, req, { title }, command);
    } catch (error) {
      current = null;
      throw error;
    }

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-store, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    const send = (data: string) => {
      if (res.writableEnded || res.destroyed) return;
      const event: TerminalEvent = { uuid, data, extend };
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    };
    const heartbeat = setInterval(() => !res.writableEnded && res.write(": ping\n\n"), HEARTBEAT_MS);
    const seconds = Math.round(options.timeoutMs / 1000);

    const finished = (end: RunEnd) => {
      clearInterval(heartbeat);
      if (current === slot) current = null;
      if (end.kind === "spawn-error") {
        const { program } = spec;
        const error = end.message;
        send(end.code === "ENOENT" ? req.t(msg`${program} is not installed on the server (${error})`) : error);
      } else if (end.kind === "timeout") {
        send(req.t(msg`Stopped: the command ran longer than ${seconds} s`));
      } else if (end.kind === "exit" && end.code !== 0) {
        const { code } = end;
        const signal = String(end.signal);
        send(code === null ? req.t(msg`The command was ended by ${signal}`) : req.t(msg`The command exited with code ${code}`));
      }
      send(end.kind === "exit" && end.code === 0 ? TERMINAL_EXEC_SUCCESS : TERMINAL_EXEC_ERROR);
      send(TERMINAL_EXEC_COMPLETED);
      req.log.info({ command, end }, "terminal command ended");
      res.end();
    };

    slot.run = runCommand(spec, path.resolve(options.projectDir, spec.cwd), options.timeoutMs, {
      onStart: () => send(TERMINAL_LINK_SUCCESS),
      onLine: send,
      onEnd: finished,
    });
    // The client went away (closed the panel, the tab, or lost the network): stop the command.
    res.on("close", () => {
      if (!res.writableFinished) slot.run?.stop();
    });
  });

  api.post(
    "/admin/ajax/changeTerminalConfig",
    { config: { adminRule: SUPER_ADMIN_RULE }, schema: { body: jsonBody(terminalConfigBody) } },
    async (req, reply) => {
      const { manager, port } = req.body;
      await db.transaction(async (tx) => {
        if (manager !== undefined) await setSetting(tx, "terminal_package_manager", manager);
        if (port !== undefined) await setSetting(tx, "terminal_port", port);
        await writeAdminLog(tx, req, { title }, "changeTerminalConfig");
      });
      return reply.success(await terminalIndex(db), msg`Updated successfully`);
    },
  );
}
