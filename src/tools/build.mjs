#!/usr/bin/env node
// Builds the client (dist/client) and the server (dist/server), and records a hash of every
// build input in dist/build-stamp.json. With --if-stale it builds only when an input changed
// (or nothing was built yet), so `npm start` on a built tree starts at once.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const stampPath = path.join(root, "dist", "build-stamp.json");
const INPUTS = ["src", "public", "locales", "package.json", "package-lock.json", "vite.config.ts", "lingui.config.ts", "tsconfig.json"];
const SKIP = /(^|\/)(node_modules|\.DS_Store)$|\.(js|mjs)$/;

function listFiles(rel) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [rel];
  return fs
    .readdirSync(abs, { withFileTypes: true })
    .flatMap((entry) => {
      const child = path.posix.join(rel, entry.name);
      // Compiled catalogs (locales/**/*.js) are outputs, not inputs; src/tools holds .mjs inputs.
      if (rel.startsWith("locales") && SKIP.test(child)) return [];
      if (entry.name === "node_modules") return [];
      return entry.isDirectory() ? listFiles(child) : [child];
    });
}

export function inputHash() {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap(listFiles).sort()) {
    hash.update(file).update("\0").update(fs.readFileSync(path.join(root, file))).update("\0");
  }
  return hash.digest("hex");
}

/**
 * The inputs' names, sizes and modification times, hashed: what `npm start` checks on a built
 * tree (stat calls only). Only when it differs from the build's are the inputs read and hashed,
 * so a tree touched without a change (a checkout) is not rebuilt either.
 */
export function inputStatHash() {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap(listFiles).sort()) {
    const info = fs.statSync(path.join(root, file));
    hash.update(`${file}\0${info.size}\0${info.mtimeMs}\0`);
  }
  return hash.digest("hex");
}

export function isStale() {
  try {
    const stamp = JSON.parse(fs.readFileSync(stampPath, "utf8"));
    const unchanged = stamp.statHash === inputStatHash() || stamp.hash === inputHash();
    return !unchanged ||
      !fs.existsSync(path.join(root, "dist/client/index.html")) ||
      !fs.existsSync(path.join(root, "dist/server/main.js"));
  } catch {
    return true;
  }
}

function run(args) {
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), ...args], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) {
    process.stderr.write(`Build failed: vite ${args.join(" ")}\n`);
    process.exit(result.status ?? 1);
  }
}

export function build() {
  const hash = inputHash();
  const statHash = inputStatHash();
  const started = Date.now();
  run(["build", "--logLevel", "warn"]);
  run(["build", "--ssr", "src/server/main.ts", "--logLevel", "warn"]);
  // The demo course media travel with the server bundle (src/server/modules/course/media.ts).
  fs.cpSync(path.join(root, "src/server/demo/media"), path.join(root, "dist/server/seed-media"), { recursive: true });
  fs.writeFileSync(stampPath, JSON.stringify({ hash, statHash, builtAt: new Date().toISOString() }) + "\n");
  process.stdout.write(`Built client and server in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--if-stale") && !isStale()) process.exit(0);
  build();
}
