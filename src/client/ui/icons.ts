/**
 * Icon lists for the icon picker (SPEC §8). Each set resolves to the class names or icon names
 * a picker can offer, or rejects with the SPEC's message when the set is not available.
 */

export type IconSet = "local" | "awesome" | "iconfont" | "element";

/**
 * Kebab-case for a lucide component name, as lucide names its icons: `AArrowDown` ->
 * `a-arrow-down`, `ArrowDownAZ` -> `arrow-down-a-z`, `Columns3Cog` -> `columns-3-cog`,
 * `Grid2x2` -> `grid-2x2`. (Digit pairs are ambiguous: `ArrowDown01` gives `arrow-down-01`,
 * where lucide's file is `arrow-down-0-1`.)
 */
export function toKebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z])(?=[A-Z])/g, "$1-")
    .replace(/([A-Za-z])(?=[0-9])/g, (letter: string, _l: string, offset: number, whole: string) =>
      letter === "x" && /[0-9]/.test(whole[offset - 1] ?? "") ? letter : `${letter}-`,
    )
    .toLowerCase();
}

/** The app's own icons: lucide-react's icon set (loaded on demand, it is large). */
async function localIconNames(): Promise<string[]> {
  const { icons } = await import("lucide-react");
  const names = Object.keys(icons ?? {}).map(toKebabCase);
  if (names.length === 0) throw new Error("No Local Icons");
  return names;
}

/** Every style rule of the readable style sheets (cross-origin sheets cannot be read). */
function styleRules(sheet: CSSStyleSheet): CSSStyleRule[] {
  const found: CSSStyleRule[] = [];
  const walk = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if ("selectorText" in rule && typeof rule.selectorText === "string") found.push(rule as CSSStyleRule);
      if ("cssRules" in rule && rule.cssRules) walk(rule.cssRules as CSSRuleList);
    }
  };
  try {
    walk(sheet.cssRules);
  } catch {
    // SecurityError: a cross-origin sheet without CORS; it cannot hold our icons' names.
  }
  return found;
}

/** Class names `prefix-xxx` of the rules `.prefix-xxx::before` (or `:before`) in `rules`. */
function beforeClassNames(rules: CSSStyleRule[], prefix: string): string[] {
  const pattern = new RegExp(`^\\.(${prefix}-[\\w-]+)::?before$`);
  const names: string[] = [];
  for (const rule of rules) {
    for (const selector of rule.selectorText.split(",")) {
      const match = pattern.exec(selector.trim());
      if (match?.[1]) names.push(match[1]);
    }
  }
  return names;
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

/** Font Awesome: every `.fa-xxx::before` rule, as `fa fa-xxx`. */
function awesomeIconNames(): string[] {
  const names = Array.from(document.styleSheets).flatMap((sheet) => beforeClassNames(styleRules(sheet), "fa"));
  if (names.length === 0) throw new Error("No AwesomeIcon style sheet");
  return unique(names).map((name) => `fa ${name}`);
}

/**
 * Iconfont (iconfont.cn): the `.icon-xxx::before` rules of a sheet that also declares an
 * iconfont font family (`.iconfont { font-family: "iconfont" }`), as `iconfont icon-xxx`.
 */
function iconfontIconNames(): string[] {
  const names = Array.from(document.styleSheets).flatMap((sheet) => {
    const rules = styleRules(sheet);
    const usesIconfont = rules.some(
      (rule) => /iconfont/i.test(rule.style?.fontFamily ?? "") || /font-family\s*:\s*["']?iconfont/i.test(rule.cssText),
    );
    return usesIconfont ? beforeClassNames(rules, "icon") : [];
  });
  if (names.length === 0) throw new Error("No Iconfont style sheet");
  return unique(names).map((name) => `iconfont ${name}`);
}

/** Element Plus icons, when a registry `globalThis.__ELEMENT_PLUS_ICONS__` lists their names. */
function elementIconNames(): string[] {
  const registry = (globalThis as { __ELEMENT_PLUS_ICONS__?: unknown }).__ELEMENT_PLUS_ICONS__;
  const names = Array.isArray(registry) ? registry.filter((name): name is string => typeof name === "string") : [];
  if (names.length === 0) throw new Error("No ElementPlus Icons");
  return names;
}

export async function getIconNames(set: IconSet): Promise<string[]> {
  switch (set) {
    case "local":
      return localIconNames();
    case "awesome":
      return awesomeIconNames();
    case "iconfont":
      return iconfontIconNames();
    case "element":
      return elementIconNames();
  }
}
