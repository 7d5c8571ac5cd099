import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The client's messages are in three catalogs (lingui.config.ts): client (every first screen),
 * member (src/client/features but login, src/client/user) and admin (src/client/admin but its
 * login page). A built app shows a message's id, not its text, when its catalog has not been
 * loaded, so: nothing that renders on the client catalog alone may reach, by any import, a file
 * whose messages are in another catalog; and every route to a member screen loads the member
 * catalog with the screen (router.tsx's memberScreen / withMemberCatalog).
 */
const root = process.cwd();
const client = path.join(root, "src/client");
const routerFile = path.join(client, "app/router.tsx");

/** The screens that render with the client catalog alone: the shell, both login pages, 401, 404. */
const CLIENT_ONLY_SCREENS = ["app/layouts/MemberLayout.tsx", "app/pages/MemberLoginPage.tsx", "app/pages/NoPermissionPage.tsx", "app/pages/NotFoundPage.tsx", "admin/AdminLoginPage.tsx"];

function areaOf(file: string): "member" | "admin" | "client" {
  const rel = path.relative(client, file).split(path.sep).join("/");
  if (/^features\/(?!auth\/)/.test(rel) || rel.startsWith("user/")) return "member";
  if (rel.startsWith("admin/") && rel !== "admin/AdminLoginPage.tsx") return "admin";
  return "client";
}

const usesMessages = (source: string) => /from "@lingui\/(?:core|react)\/macro"/.test(source);

/** Relative imports of a file: static (import/export … from) and dynamic (import("…")). */
function importsOf(file: string): { target: string; dynamic: boolean; line: string }[] {
  const source = fs.readFileSync(file, "utf8");
  const found: { target: string; dynamic: boolean; line: string }[] = [];
  for (const line of source.split("\n")) {
    for (const m of line.matchAll(/(?:from\s+|import\s+)"(\.{1,2}\/[^"]+)"|import\("(\.{1,2}\/[^"]+)"\)/g)) {
      const spec = m[1] ?? m[2]!;
      if (!/\.(tsx?|mts)$/.test(spec)) continue;
      found.push({ target: path.resolve(path.dirname(file), spec), dynamic: m[2] !== undefined, line });
    }
  }
  return found;
}

/** Every file reachable from these roots; router.tsx's route imports are not followed (each route loads its own catalog). */
function reachable(roots: string[]): Map<string, string[]> {
  const via = new Map<string, string[]>();
  const queue: [file: string, chain: string[]][] = roots.map((file) => [file, [path.relative(root, file)]]);
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [file, chain] = next;
    if (via.has(file) || !fs.existsSync(file)) continue;
    via.set(file, chain);
    for (const { target, dynamic } of importsOf(file)) {
      if (file === routerFile && dynamic) continue;
      queue.push([target, [...chain, path.relative(root, target)]]);
    }
  }
  return via;
}

describe("client catalog areas", () => {
  it("the shell and the login pages reach no file whose messages are in the member or admin catalog", () => {
    const files = reachable([path.join(client, "main.tsx"), ...CLIENT_ONLY_SCREENS.map((f) => path.join(client, f))]);
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
});
