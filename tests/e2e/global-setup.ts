import fs from "node:fs";
import { startServer } from "./server.ts";

/**
 * Starts the production server once on a fresh DATA_DIR (migrations and demo data), stops it
 * cleanly and keeps its data directory as the template that startServer copies: every later
 * server of the run skips the first start's work. The template goes when the run ends.
 */
export default async function globalSetup(): Promise<() => void> {
  delete process.env.E2E_DATA_TEMPLATE;
  const server = await startServer();
  server.process.kill("SIGTERM");
  const code = await new Promise<number | null>((resolve) => server.process.on("exit", resolve));
  if (code !== 0) throw new Error(`the template server did not stop cleanly (exit ${code}):\n${server.output()}`);
  process.env.E2E_DATA_TEMPLATE = server.dataDir;
  return () => fs.rmSync(server.dataDir, { recursive: true, force: true });
}
