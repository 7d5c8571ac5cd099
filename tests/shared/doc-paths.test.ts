import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every file a comment or a doc names exists, so a reader who follows one is never sent to a
 * file that moved or went away. Read: the comments of src/ and tests/ (migrations excepted: each
 * describes the code of its day and is never edited), of eslint.config.js and vite.config.ts,
 * and the whole of docs/*.md and README.md.
 *
 * What counts as a reference (REFERENCE below):
 * - a path with a folder, ending in a source or doc extension (`crud/resource.ts`,
 *   `src/server/clock.ts`), or a folder under the repository's own top folders (`src/server/db/`).
 *   It may be written from the repository's root, from the naming file's folder, or from one of
 *   the roots the code is spoken of from (ROOTS).
 * - in code only, a bare file name ("engine.ts"): a file the naming file imports, its sibling, a
 *   file in one of its parent folders, or one at the roots ("app.ts" from a server module is
 *   src/server/app.ts). A
 *   bare ".md" name is a doc: README.md, or its name in small letters under docs/ ("API.md" is
 *   docs/api.md). Docs list bare names under a folder already named, so a doc's are not read.
 * Not references: URLs and absolute paths (a `/` or `:` before the name), placeholders and
 * examples in angle brackets or quotes (`<a/main.js>`, `new URL("./worker.mjs")`), data files
 * (.json: zip layouts, manifests), globs (`migrations/*.sql`) and the build's output (dist/).
 */

const ROOTS = ["", "src", "src/client", "src/server", "src/shared", "src/server/modules", "src/client/admin"];
const EXTENSIONS = "ts|tsx|mjs|cjs|js|sql|md|css|html|po|sh";
const REFERENCE = new RegExp(
  String.raw`(?<![\w./:@~$<"'*-])((?:[\w.-]+/)+[\w.-]*[\w-]\.(?:${EXTENSIONS})|(?:src|tests|docs|public|locales)/(?:[\w.-]+/)*|[\w.-]*[\w-]\.(?:ts|tsx|mjs|md))(?![\w/*-])`,
  "g",
);

/** The text of a line that is comment: a whole `//`, `/*`, ` *` or `--` line, or a trailing `// …`. */
function commentOf(line: string): string | undefined {
  return (/^\s*(?:\/\*\*?|\*(?!\/)|--|\/\/)\s?(.*)$/.exec(line) ?? /\s\/\/\s(.*)$/.exec(line))?.[1];
}

function resolves(ref: string, from: string, root: string, imported: Set<string>): boolean {
  const exists = (p: string) => existsSync(path.join(root, p));
  if (ref.includes("/")) return ROOTS.some((r) => exists(path.join(r, ref))) || exists(path.join(path.dirname(from), ref));
  if (ref.endsWith(".md")) return exists(ref) || exists(path.join("docs", ref.toLowerCase()));
  if (imported.has(ref)) return true;
  for (let dir = path.dirname(from); dir !== "."; dir = path.dirname(dir)) if (exists(path.join(dir, ref))) return true;
  return ROOTS.some((r) => exists(path.join(r, ref)));
}

/** The references of one file's text that name nothing in the repository at `root`, as `file:line: ref`. */
export function staleReferences(file: string, text: string, root: string): string[] {
  const isDoc = file.endsWith(".md");
  const stale: string[] = [];
  const imported = new Set(
    [...text.matchAll(/(?:from |import\()"(\.{1,2}\/[^"]+)"/g)].filter(([, spec]) => existsSync(path.join(root, path.dirname(file), spec!))).map(([, spec]) => path.basename(spec!)),
  );
  text.split("\n").forEach((line, i) => {
    const comment = isDoc ? line : commentOf(line);
    if (comment === undefined) return;
    for (const [, ref] of comment.matchAll(REFERENCE)) {
      if (ref!.startsWith("dist/") || (isDoc && !ref!.includes("/"))) continue;
      if (!resolves(ref!, file, root, imported)) stale.push(`${file}:${i + 1}: ${ref}`);
    }
  });
  return stale;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

const root = process.cwd();
const scanned = [
  ...filesUnder("src").filter((f) => /\.(ts|tsx|mjs|js|css|html)$/.test(f)),
  ...filesUnder("tests").filter((f) => /\.(ts|tsx|mjs|js)$/.test(f)),
  ...readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  "README.md",
  "eslint.config.js",
  "vite.config.ts",
];

describe("file paths named in comments and docs", () => {
  it("all exist", () => {
    const stale = scanned.flatMap((file) => staleReferences(file, readFileSync(file, "utf8"), root));
    expect(stale).toEqual([]);
  });

  it("reads enough files and references for the check to mean something", () => {
    const named = scanned.flatMap((file) => readFileSync(file, "utf8").split("\n").flatMap((line) => [...(commentOf(line) ?? "").matchAll(REFERENCE)]));
    expect(scanned.length).toBeGreaterThan(500);
    expect(named.length).toBeGreaterThan(300);
  });

  it("finds a moved file, a renamed sibling and a missing doc, and leaves URLs, placeholders and data alone", () => {
    const text = [
      "/**",
      " * The CRUD engine (src/server/crud/engine.ts, was crud/engine.ts), beside engine.ts,",
      " * documented in NOPE.md; kept: crud/resource.ts, clock.ts, API.md, src/server/db/,",
      " * https://example.com/src/x.ts, <a/main.js>, `notice/manifest.json`, migrations/*.sql.",
      " */",
      'const url = "src/not/a/comment.ts";',
      "run(); \u002f/ see offline/gone.ts",
    ].join("\n");
    expect(staleReferences("src/server/sample.ts", text, root)).toEqual([
      "src/server/sample.ts:2: src/server/crud/engine.ts",
      "src/server/sample.ts:2: crud/engine.ts",
      "src/server/sample.ts:2: engine.ts",
      "src/server/sample.ts:3: NOPE.md",
      "src/server/sample.ts:7: offline/gone.ts",
    ]);
  });
});
