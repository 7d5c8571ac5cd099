import { afterEach, describe, expect, it, vi } from "vitest";
import { getIconNames, toKebabCase } from "../../src/client/ui/icons.ts";

function addStyle(css: string): HTMLStyleElement {
  const style = document.createElement("style");
  style.textContent = css;
  document.head.append(style);
  return style;
}

afterEach(() => {
  document.head.querySelectorAll("style").forEach((style) => style.remove());
  vi.unstubAllGlobals();
  vi.doUnmock("lucide-react");
  vi.resetModules();
});

describe("toKebabCase", () => {
  it.each([
    ["House", "house"],
    ["AArrowDown", "a-arrow-down"],
    ["ArrowDownAZ", "arrow-down-a-z"],
    ["Columns3Cog", "columns-3-cog"],
    ["Clock10", "clock-10"],
    ["Grid2x2Check", "grid-2x2-check"],
    ["BookOpenText", "book-open-text"],
  ])("%s -> %s", (name, expected) => {
    expect(toKebabCase(name)).toBe(expected);
  });
});

describe("getIconNames('local')", () => {
  it("lists lucide's icons, kebab-cased", async () => {
    const names = await getIconNames("local");
    expect(names.length).toBeGreaterThan(1000);
    expect(names).toEqual(expect.arrayContaining(["house", "a-arrow-down", "book-open", "circle-check"]));
    for (const name of names) expect(name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it("rejects with No Local Icons when the set is empty", async () => {
    vi.doMock("lucide-react", () => ({ icons: {} }));
    vi.resetModules();
    const fresh = await import("../../src/client/ui/icons.ts");
    await expect(fresh.getIconNames("local")).rejects.toThrow(new Error("No Local Icons"));
  });
});

describe("getIconNames('awesome')", () => {
  it("lists `.fa-*::before` rules as `fa fa-xxx`", async () => {
    addStyle('.fa-home::before{content:"x"}');
    addStyle('.fa{display:inline-block}.fa-user::before,.fa-person::before{content:"y"}.fa-spin{animation:none}');
    await expect(getIconNames("awesome")).resolves.toEqual(["fa fa-home", "fa fa-user", "fa fa-person"]);
  });

  it.each([
    ["no style sheet", null],
    ["a sheet without icon rules", ".fa{display:inline-block}.fa-spin{animation:none}"],
    ["another icon font only", '.icon-home::before{content:"x"}'],
  ])("rejects with No AwesomeIcon style sheet given %s", async (_case, css) => {
    if (css) addStyle(css);
    await expect(getIconNames("awesome")).rejects.toThrow(new Error("No AwesomeIcon style sheet"));
  });
});

describe("getIconNames('iconfont')", () => {
  const iconfontCss =
    '.iconfont{font-family:"iconfont" !important;font-style:normal}' +
    '.icon-home::before{content:"\\e600"}.icon-user:before{content:"\\e601"}';

  it("lists the `.icon-*::before` rules of an iconfont sheet as `iconfont icon-xxx`", async () => {
    addStyle(iconfontCss);
    await expect(getIconNames("iconfont")).resolves.toEqual(["iconfont icon-home", "iconfont icon-user"]);
  });

  it.each([
    ["no style sheet", null],
    ["icon rules without an iconfont font family", '.icon-home::before{content:"x"}'],
    ["Font Awesome only", '.fa-home::before{content:"x"}'],
  ])("rejects with No Iconfont style sheet given %s", async (_case, css) => {
    if (css) addStyle(css);
    await expect(getIconNames("iconfont")).rejects.toThrow(new Error("No Iconfont style sheet"));
  });
});

describe("getIconNames('element')", () => {
  it("lists the names of the global Element Plus registry", async () => {
    vi.stubGlobal("__ELEMENT_PLUS_ICONS__", ["Edit", "Delete"]);
    await expect(getIconNames("element")).resolves.toEqual(["Edit", "Delete"]);
  });

  it.each([
    ["no registry", undefined],
    ["an empty registry", []],
    ["a registry that is not a list", { Edit: {} }],
  ])("rejects with No ElementPlus Icons given %s", async (_case, registry) => {
    if (registry !== undefined) vi.stubGlobal("__ELEMENT_PLUS_ICONS__", registry);
    await expect(getIconNames("element")).rejects.toThrow(new Error("No ElementPlus Icons"));
  });
});
