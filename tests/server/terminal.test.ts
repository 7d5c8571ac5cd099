import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terminalCommands } from "../../src/server/modules/terminal/commands.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createAdmin, type TestAdmin } from "../helpers/factories.ts";

/**
 * The terminal's server side (API.md "Terminal (SSE)"): allow-listed commands streamed as
 * server-sent events, super admins only, one at a time, stopped when the client goes away.
 */

// Test-only commands, given through buildApp's deps (production has only its own list).
const testCommands = {
  // Prints its pid, then runs until it is stopped.
  "test.long": { program: process.execPath, args: ["-e", "console.log('pid=' + process.pid); setInterval(() => {}, 1000)"], cwd: "." },
  "test.colour": { program: process.execPath, args: ["-e", "console.log('\\u001b[32mgreen\\u001b[39m'); console.error('to stderr'); process.exit(3)"], cwd: "." },
  "test.missing": { program: "examhub-no-such-package-manager", args: ["--version"], cwd: "." },
};

let t: TestApp;
let admin: TestAdmin;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ deps: { terminalCommands: testCommands }, config: { terminalTimeoutSeconds: 20 } });
  admin = await createAdmin(t.database.db);
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await t.close();
});

interface Event {
  uuid: string;
  data: string;
  extend: string;
}

const uuid = () => crypto.randomUUID();

/** Opens the stream with the token in its header; resolves with the events once it ends. */
async function run(command: string, headers: Record<string, string> = admin.headers, id = uuid()) {
  const res = await fetch(`${base}/admin/ajax/terminal?command=${encodeURIComponent(command)}&uuid=${id}&extend=x`, { headers });
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  if (!type.startsWith("text/event-stream")) return { type, envelope: JSON.parse(text) as { code: number; msg: string }, events: [] as Event[] };
  const events = text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => JSON.parse(block.slice(6)) as Event);
  return { type, envelope: null, events };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("GET /admin/ajax/terminal", () => {
  it("runs version.node and streams the version between the status lines", async () => {
    const id = uuid();
    const { type, events } = await run("version.node", admin.headers, id);
    expect(type).toMatch(/^text\/event-stream/);
    expect(events.map((e) => e.data)).toEqual(["command-link-success", process.version, "command-exec-success", "command-exec-completed"]);
    expect(events.every((e) => e.uuid === id && e.extend === "x")).toBe(true);
  });

  it("streams stdout and stderr with their colour codes and fails on a non-zero exit", async () => {
    const { events } = await run("test.colour");
    const data = events.map((e) => e.data);
    expect(data[0]).toBe("command-link-success");
    expect(data).toContain("\u001b[32mgreen\u001b[39m");
    expect(data).toContain("to stderr");
    expect(data).toContain("The command exited with code 3");
    expect(data.slice(-2)).toEqual(["command-exec-error", "command-exec-completed"]);
  });

  it("refuses an unknown key and free text with an envelope, running nothing", async () => {
    for (const command of ["version.python", "constructor.x", "rm -rf /", "version.node;ls"]) {
      const { envelope } = await run(command);
      expect(envelope?.code, command).toBe(0);
    }
    expect((await run("version.python")).envelope?.msg).toBe("Unknown command: version.python");
  });

  it("refuses a uuid that is not 36 characters", async () => {
    const res = await fetch(`${base}/admin/ajax/terminal?command=version.node&uuid=abc`, { headers: admin.headers });
    expect((await res.json()).code).toBe(0);
  });

  it("refuses an admin who is not a super admin, and anyone without a token", async () => {
    const plain = await createAdmin(t.database.db, { isSuper: false });
    const { envelope } = await run("version.node", plain.headers);
    expect(envelope?.code).toBe(401);
    expect((await run("version.node", { "think-lang": "en" })).envelope?.code).toBe(303);
    // The token is never taken from the URL.
    const res = await fetch(`${base}/admin/ajax/terminal?command=version.node&uuid=${uuid()}&batoken=${admin.token}`);
    expect((await res.json()).code).toBe(303);
  });

  it("ends a package manager that is not installed as a failure with its message", async () => {
    const { events } = await run("test.missing");
    const data = events.map((e) => e.data);
    expect(data).not.toContain("command-link-success");
    expect(data[0]).toMatch(/examhub-no-such-package-manager is not installed on the server \(spawn examhub-no-such-package-manager ENOENT\)/);
    expect(data.slice(-2)).toEqual(["command-exec-error", "command-exec-completed"]);
  });

  it("runs one command at a time and stops the command when the client disconnects", async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/admin/ajax/terminal?command=test.long&uuid=${uuid()}`, { headers: admin.headers, signal: controller.signal });
    const reader = res.body!.getReader();
    let text = "";
    while (!/pid=(\d+)/.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended: ${text}`);
      text += new TextDecoder().decode(value);
    }
    const pid = Number(/pid=(\d+)/.exec(text)![1]);
    expect(alive(pid)).toBe(true);

    const second = await run("version.node");
    expect(second.envelope?.code).toBe(0);
    expect(second.envelope?.msg).toBe("Another command is running: wait until it has finished");

    controller.abort();
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
    // The slot is free again.
    await expect.poll(async () => (await run("version.node")).events.at(-2)?.data, { timeout: 10_000 }).toBe("command-exec-success");
  });

  it("writes every run to the admin log", async () => {
    const { rows } = await t.database.db.query<{ title: string; url: string; data: { query: { command: string } } }>(
      "select title, url, data from admin_log where admin_id = $1 order by id",
      [admin.id],
    );
    expect(rows.length).toBeGreaterThan(3);
    expect(rows[0]).toMatchObject({ title: "Terminal / version.node", url: "/admin/ajax/terminal", data: { query: { command: "version.node" } } });
  });
});

describe("the allow-list", () => {
  it("holds fixed argument lists for every package manager, and migrate.run only with the server's own entry", () => {
    const table = terminalCommands();
    expect(table["version.node"]).toEqual({ program: process.execPath, args: ["--version"], cwd: "." });
    expect(table["install.pnpm"]).toEqual({ program: "pnpm", args: ["install"], cwd: "." });
    expect(table["web-build.yarn"]).toEqual({ program: "yarn", args: ["run", "build"], cwd: "." });
    expect(table["migrate.run"]).toBeUndefined();
    expect(terminalCommands({ program: "/usr/bin/node", args: ["dist/server/main.js"] })["migrate.run"]).toEqual({
      program: "/usr/bin/node",
      args: ["dist/server/main.js", "--migrate"],
      cwd: ".",
    });
  });
});

describe("the time limit", () => {
  it("stops a command that runs too long, with a failure line", async () => {
    const short = await createTestApp({ deps: { terminalCommands: testCommands }, config: { terminalTimeoutSeconds: 1 } });
    try {
      const boss = await createAdmin(short.database.db);
      const url = await short.app.listen({ port: 0, host: "127.0.0.1" });
      const res = await fetch(`${url}/admin/ajax/terminal?command=test.long&uuid=${uuid()}`, { headers: boss.headers });
      const data = (await res.text())
        .split("\n\n")
        .filter((b) => b.startsWith("data: "))
        .map((b) => (JSON.parse(b.slice(6)) as Event).data);
      const pid = Number(/pid=(\d+)/.exec(data.join("\n"))![1]);
      expect(data.slice(-3)).toEqual(["Stopped: the command ran longer than 1 s", "command-exec-error", "command-exec-completed"]);
      expect(alive(pid)).toBe(false);
    } finally {
      await short.close();
    }
  });
});

describe("POST /admin/ajax/changeTerminalConfig", () => {
  const post = (payload: unknown, headers = admin.headers) =>
    t.app.inject({ method: "POST", url: "/admin/ajax/changeTerminalConfig", payload: payload as object, headers }).then((r) => r.json<{ code: number; msg: string; data: unknown }>());
  const index = async () =>
    (await t.app.inject({ method: "GET", url: "/admin/index/index", headers: admin.headers })).json<{ data: { terminal: { installServicePort: string; npmPackageManager: string } } }>().data.terminal;

  it("starts from pnpm and port 8000, stores the manager and the port, and the start data follows", async () => {
    expect(await index()).toEqual({ installServicePort: "8000", npmPackageManager: "pnpm" });
    expect((await post({ manager: "npm" })).code).toBe(1);
    expect((await post({ port: 8123 })).code).toBe(1);
    expect(await index()).toEqual({ installServicePort: "8123", npmPackageManager: "npm" });
  });

  it("refuses an unknown manager, a bad port, an empty body and a non-super admin", async () => {
    expect((await post({ manager: "sh -c ls" })).code).toBe(0);
    expect((await post({ port: 70000 })).code).toBe(0);
    expect((await post({})).code).toBe(0);
    const plain = await createAdmin(t.database.db, { isSuper: false });
    expect((await post({ manager: "yarn" }, plain.headers)).code).toBe(401);
    expect(await index()).toEqual({ installServicePort: "8123", npmPackageManager: "npm" });
  });
});
