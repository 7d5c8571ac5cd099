import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Libraries only a rare staff action needs are loaded by that action, not by every server start
 * (exceljs and its dependencies were about 0.4 s of each start: 2.4-3.1 s before, 2.2-2.35 s after, on
 * an existing DATA_DIR with `npm run bench`'s cold start). A static
 * import anywhere under src/server would bring them back into the start-up; type-only imports
 * are erased and fine.
 */
const LAZY = ["exceljs", "pdf-lib", "@pdf-lib/fontkit", "qrcode"];
/** The one loader of each (a dynamic import, or `lazyRequire` of src/server/lazy.ts). */
const LOADERS: Record<string, [file: string, pattern: RegExp]> = {
  exceljs: ["src/server/crud/resources/excel.ts", /import\(["']exceljs["']\)/],
  "pdf-lib": ["src/server/modules/certificate/pdf.ts", /lazyRequire<[^>]+>\("pdf-lib"\)/],
  "@pdf-lib/fontkit": ["src/server/modules/certificate/pdf.ts", /lazyRequire<[^>]+>\("@pdf-lib\/fontkit"\)/],
  qrcode: ["src/server/modules/certificate/pdf.ts", /lazyRequire<[^>]+>\("qrcode"\)/],
};

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [full] : [];
  });
}

describe("libraries loaded on demand", () => {
  it.each(LAZY)("%s is never imported statically by the server", (name) => {
    const staticImport = new RegExp(`^\\s*import\\s+(?!type\\b)[^;]*?from\\s+["']${name}(?:/[^"']*)?["']`, "m");
    const offenders = sources(path.resolve("src/server")).filter((file) => staticImport.test(fs.readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
    // The one loader exists and is what the code that needs it uses.
    const [file, loader] = LOADERS[name]!;
    expect(fs.readFileSync(path.resolve(file), "utf8")).toMatch(loader);
  });
});
