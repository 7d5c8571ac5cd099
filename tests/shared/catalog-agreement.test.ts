import fs from "node:fs";
import path from "node:path";
import { formatter } from "@lingui/format-po";
import { describe, expect, it } from "vitest";

/**
 * The client's four catalogs (client, common, member, admin: lingui.config.ts) are merged into one
 * message table per language as the app reaches them (src/client/i18n), and the back office
 * loads the member's catalog as well as its own. A message id in two catalogs with two
 * translations therefore renders as whichever catalog came last: "Required" read 需要 on the
 * login form after a visit to the exam intro. Where one English word means two things, the code
 * gives it a context (`t({ message, context })`) or another id; this keeps them agreeing.
 */
const CLIENT_CATALOGS = ["client", "common", "member", "admin"] as const;

const po = formatter({});

/** Every message id (a message and its context) the catalogs translate two ways, per language. */
async function catalogDisagreements(readCatalog: (locale: string, name: string) => string): Promise<string[]> {
  const found: string[] = [];
  for (const locale of ["zh-cn", "en"]) {
    const seen = new Map<string, { catalog: string; text: string }>();
    for (const catalog of CLIENT_CATALOGS) {
      const entries = (await po.parse(readCatalog(locale, catalog), { locale, sourceLocale: "en", filename: `${catalog}.po` })) ?? {};
      for (const [id, entry] of Object.entries(entries)) {
        const text = entry.translation || entry.message || id;
        const first = seen.get(id);
        if (!first) seen.set(id, { catalog, text });
        else if (first.text !== text) found.push(`${locale} ${JSON.stringify(entry.message ?? id)}: ${first.catalog} ${JSON.stringify(first.text)} ≠ ${catalog} ${JSON.stringify(text)}`);
      }
    }
  }
  return found;
}

const readLocale = (locale: string, name: string) => fs.readFileSync(path.join(process.cwd(), "locales", locale, `${name}.po`), "utf8");

describe("the client's catalogs", () => {
  it("translate a message the same way wherever it appears", async () => {
    expect(await catalogDisagreements(readLocale)).toEqual([]);
  });

  it("would name a message translated two ways", async () => {
    const po = (text: string) => `msgid ""\nmsgstr ""\n\nmsgid "Required"\nmsgstr "${text}"\n`;
    const catalogs: Record<string, string> = { client: po("必填项"), common: po(""), member: po("需要"), admin: po("必填项") };
    const found = await catalogDisagreements((locale, name) => (locale === "zh-cn" ? catalogs[name]! : 'msgid ""\nmsgstr ""\n'));
    expect(found).toEqual(['zh-cn "Required": client "必填项" ≠ common "Required"', 'zh-cn "Required": client "必填项" ≠ member "需要"']);
  });
});
