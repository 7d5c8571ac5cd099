#!/usr/bin/env node
// `npm start`: build whatever is missing or stale, then run the server in this same process
// (so SIGTERM/SIGINT reach it directly and it shuts down cleanly).
import { build, isStale } from "./build.mjs";

if (isStale()) {
  process.stdout.write("Building the app (first start or changed sources)...\n");
  build();
}
await import("../../dist/server/main.js");
