import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIRST_SCREEN_FILES } from "../../lingui.config.ts";

/**
 * The client's messages are in four catalogs (lingui.config.ts): client (the first screens:
 * FIRST_SCREEN_FILES), common (the rest of src/client and src/shared both areas share), member
 * (src/client/features but login, src/client/user) and admin (src/client/admin but its login
 * page, and src/shared/admin). A built app shows a message's id, not its text, when its catalog
 * has not been loaded, so: nothing that renders on the client catalog alone may reach, by any
 * import, a file whose messages are in the member or admin catalog; the client catalog is
 * exactly what the first screens import statically; everything they load later loads the common
 * catalog with it (withCommonCatalog); and every route to a member screen loads the member
 * catalog with the screen (app/router.tsx's memberScreen / withMemberCatalog). The same walk keeps
 * TanStack Query out of the first screens: its provider is a layout route (app/router.tsx's
 * withQueries) that every screen reading through it is inside.
 */
const root = process.cwd();
const client = path.join(root, "src/client");
const routerFile = path.join(client, "app/router.tsx");

/** The screens that render with the client catalog alone: the shell, both login pages, 401, 404. */
const CLIENT_ONLY_SCREENS = ["app/layouts/MemberLayout.tsx", "app/pages/MemberLoginPage.tsx", "app/pages/NoPermissionPage.tsx", "app/pages/NotFoundPage.tsx", "admin/AdminLoginPage.tsx"];
/** What renders on the client catalog alone: the entry, the app it sets up (main.tsx imports it with import(), in a task of its own) and those screens. */
const ROOTS = [path.join(client, "main.tsx"), path.join(client, "app/App.tsx"), ...CLIENT_ONLY_SCREENS.map((f) => path.join(client, f))];

function areaOf(file: string): "member" | "admin" | "client" {
  const rel = path.relative(client, file).split(path.sep).join("/");
  if (/^features\/(?!auth\/)/.test(rel) || rel.startsWith("user/")) return "member";
  if (rel.startsWith("admin/") && rel !== "admin/AdminLoginPage.tsx") return "admin";
  if (rel.startsWith("../shared/admin/")) return "admin";
  return "client";
}

const usesMessages = (source: string) => /from "@lingui\/(?:core|react)\/macro"/.test(source);

/** Relative imports of a file: static (import/export … from) and dynamic (import("…")); type-only imports load nothing. */
function importsOf(file: string): { target: string; dynamic: boolean; line: string }[] {
  const source = fs.readFileSync(file, "utf8");
  const found: { target: string; dynamic: boolean; line: string }[] = [];
  for (const line of source.split("\n")) {
    if (/^\s*(?:import|export) type\b/.test(line)) continue;
    for (const m of line.matchAll(/(?:from\s+|import\s+)"(\.{1,2}\/[^"]+)"|import\("(\.{1,2}\/[^"]+)"\)/g)) {
      const spec = m[1] ?? m[2]!;
      if (!/\.(tsx?|mts)$/.test(spec)) continue;
      found.push({ target: path.resolve(path.dirname(file), spec), dynamic: m[2] !== undefined, line });
    }
  }
  return found;
}

/**
 * Every file reachable from these roots; app/router.tsx's route imports are not followed (each route
 * loads its own catalog). With `staticOnly`, only what loads with the roots themselves.
 */
function reachable(roots: string[], { staticOnly = false } = {}): Map<string, string[]> {
  const via = new Map<string, string[]>();
  const queue: [file: string, chain: string[]][] = roots.map((file) => [file, [path.relative(root, file)]]);
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [file, chain] = next;
    if (via.has(file) || !fs.existsSync(file)) continue;
    via.set(file, chain);
    for (const { target, dynamic } of importsOf(file)) {
      if ((file === routerFile || staticOnly) && dynamic) continue;
      queue.push([target, [...chain, path.relative(root, target)]]);
    }
  }
  return via;
}

describe("client catalog areas", () => {
  it("the shell and the login pages reach no file whose messages are in the member or admin catalog", () => {
    const files = reachable(ROOTS);
    // The walk itself works: it goes through the app, its layouts and its login panel.
    expect(files.has(path.join(client, "features/auth/MemberAuthPanel.tsx"))).toBe(true);
    expect(files.has(path.join(client, "app/layouts/MemberSync.tsx"))).toBe(true);
    expect(files.size).toBeGreaterThan(40);
    const offending = [...files].filter(([file]) => areaOf(file) !== "client" && usesMessages(fs.readFileSync(file, "utf8"))).map(([, chain]) => chain.join(" → "));
    expect(offending).toEqual([]);
  });

  it("every route to a member screen loads the member catalog with it", () => {
    const routes = importsOf(routerFile).filter(({ dynamic }) => dynamic);
    expect(routes.length).toBeGreaterThan(20);
    const unwrapped = routes.filter(({ target, line }) => {
      const memberScreen = areaOf(target) === "member" || target.endsWith("ExamDetailLayout.tsx");
      return memberScreen && !/memberScreen\(|withMemberCatalog\(/.test(line);
    });
    expect(unwrapped.map(({ line }) => line.trim())).toEqual([]);
  });

  it("no first screen loads TanStack Query, and every route to a screen that reads through it is inside withQueries", () => {
    const importsQuery = (file: string) => /from "@tanstack\/react-query"/.test(fs.readFileSync(file, "utf8"));
    const first = reachable(ROOTS);
    expect([...first].filter(([file]) => importsQuery(file)).map(([, chain]) => chain.join(" → "))).toEqual([]);

    // The spans of app/router.tsx inside `withQueries([ … ])`, by bracket matching, and of each list
    // of routes (`const name: RouteObject[] = [ … ]`) spread (`...name`) inside one of those.
    const source = fs.readFileSync(routerFile, "utf8");
    const closing = (open: number) => {
      let depth = 0;
      for (let i = open; i < source.length; i++) {
        if (source[i] === "[") depth++;
        else if (source[i] === "]" && --depth === 0) return i;
      }
      throw new Error(`router.tsx: no closing bracket for the one at ${open}`);
    };
    const spans = [...source.matchAll(/withQueries\(\[/g)].map((m): [number, number] => [m.index, closing(m.index + m[0].length - 1)]);
    expect(spans.length).toBeGreaterThan(0);
    const within = (at: number) => spans.some(([from, to]) => at > from && at < to);
    for (const m of source.matchAll(/const (\w+): RouteObject\[\] = \[/g)) {
      const spread = [...source.matchAll(new RegExp(`\\.\\.\\.${m[1]}\\b`, "g"))];
      if (spread.length > 0 && spread.every((s) => within(s.index))) spans.push([m.index, closing(m.index + m[0].length - 1)]);
    }
    const dynamicImports = [...source.matchAll(/import\("(\.{1,2}\/[^"]+)"\)/g)]
      .map((m) => ({ at: m.index, target: path.resolve(path.dirname(routerFile), m[1]!) }))
      .filter(({ target }) => target !== path.join(client, "app/queries.tsx"));
    const readers = dynamicImports.filter(({ target }) => [...reachable([target]).keys()].some(importsQuery));
    // The walk finds the screens that read through it (the member's exams, the back office).
    expect(readers.length).toBeGreaterThan(10);
    const outside = readers.filter(({ at }) => !within(at)).map(({ target }) => path.relative(root, target));
    expect(outside).toEqual([]);
  });

  it("no first screen loads the request layer: api/index.ts loads it with the first request", () => {
    const roots = ROOTS;
    const requestLayer = [path.join(client, "api/client.ts"), path.join(client, "api/http.ts")];
    const first = reachable(roots, { staticOnly: true });
    // The walk goes through the login panel to the request facade, and the request layer is one import() away.
    expect(first.has(path.join(client, "features/auth/MemberAuthPanel.tsx"))).toBe(true);
    expect(first.has(path.join(client, "api/index.ts"))).toBe(true);
    for (const file of requestLayer) expect(reachable(roots).has(file)).toBe(true);
    expect([...first].filter(([file]) => requestLayer.includes(file)).map(([, chain]) => chain.join(" → "))).toEqual([]);
  });

  it("the client catalog holds exactly the messages the first screens import statically", () => {
    const first = reachable(ROOTS, { staticOnly: true });
    const withMessages = [...first.keys()].filter((file) => usesMessages(fs.readFileSync(file, "utf8"))).map((file) => path.relative(root, file).split(path.sep).join("/"));
    // The walk reaches the login panel, the layouts and the shared form checks.
    expect(withMessages).toContain("src/client/features/auth/MemberAuthPanel.tsx");
    expect(withMessages).toContain("src/shared/validation.ts");
    expect(withMessages.sort()).toEqual([...FIRST_SCREEN_FILES].sort());
  });

  it("everything a first screen loads later loads the common catalog with it", () => {
    const isCommon = (file: string) => areaOf(file) === "client" && !FIRST_SCREEN_FILES.includes(path.relative(root, file).split(path.sep).join("/"));
    /** Whether a module, with what it imports statically, shows messages of the common catalog. */
    const needsCommon = (target: string) => [...reachable([target], { staticOnly: true }).keys()].some((file) => isCommon(file) && usesMessages(fs.readFileSync(file, "utf8")));
    const loadsCommon = (line: string) => /withCommonCatalog\(|lazyDialog\(|memberScreen\(|withMemberCatalog\(|loadAdminCatalog\(/.test(line);
    // lazyDialog loads the common catalog with every dialog it makes.
    expect(fs.readFileSync(path.join(client, "ui/lazyDialog.tsx"), "utf8")).toMatch(/lazy\(withCommonCatalog\(/);

    // Every import() from the first screens, and from what they load, until one loads the catalog.
    const bare: string[] = [];
    let checked = 0;
    const seen = new Set<string>();
    const queue: [file: string, loaded: boolean][] = ROOTS.map((file) => [file, false]);
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [file, loaded] = next;
      if (loaded || seen.has(file) || !fs.existsSync(file)) continue;
      seen.add(file);
      for (const { target, dynamic, line } of importsOf(file)) {
        if (!dynamic) {
          queue.push([target, false]);
          continue;
        }
        // The routes: a screen outside the member and admin areas loads the catalog itself.
        if (file === routerFile && areaOf(target) !== "client") continue;
        if (loadsCommon(line)) continue;
        checked++;
        if (needsCommon(target)) bare.push(`${path.relative(root, file)}: ${line.trim()}`);
        queue.push([target, false]);
      }
    }
    // The walk went through the routes, the layouts' menus and the login panel's imports.
    expect(checked).toBeGreaterThan(5);
    expect(bare).toEqual([]);
  });
});
