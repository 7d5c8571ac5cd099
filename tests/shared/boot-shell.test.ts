import fs from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * index.html paints the member home before any script runs (its header, blue intro and
 * benefits, and a box of the login form's size), in both languages: the same words the app then draws there (MemberLoginPage, through the
 * client catalog), so the app takes over without a word changing. A wording change in one place
 * and not the other fails here.
 */
const html = fs.readFileSync("src/client/index.html", "utf8");

/** msgid → msgstr of a catalog (single-line entries, as lingui writes short messages). */
function catalog(file: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const m of fs.readFileSync(file, "utf8").matchAll(/^msgid "(.*)"\nmsgstr "(.*)"$/gm)) entries.set(m[1]!, m[2]!);
  return entries;
}

const homeShell = html.slice(html.indexOf('<div id="boot-home">'));
const shellTexts = [...homeShell.matchAll(/<(h1|p|b) data-en="([^"]+)">([^<]+)<\/\1>/g)].map((m) => ({ tag: m[1]!, en: m[2]!, zh: m[3]! }));

describe("the boot shell of the member home", () => {
  it("has the intro's title and description and each benefit's, in English and Chinese", () => {
    // The intro, the four benefits and the offline promise: a title and its sentence each.
    expect(shellTexts.map((t) => t.tag)).toEqual(["h1", "p", ...Array.from({ length: 5 }, () => ["b", "p"]).flat()]);
  });

  it("says what the login page says, in both catalogs", () => {
    const zh = catalog("locales/zh-cn/client.po");
    const page = fs.readFileSync("src/client/app/pages/MemberLoginPage.tsx", "utf8");
    for (const { en, zh: chinese } of shellTexts) {
      expect(page).toContain(`<Trans>${en}</Trans>`);
      expect(zh.get(en)).toBe(chinese);
    }
  });

});
