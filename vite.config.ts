/// <reference types="vitest/config" />
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin, type PluginOption, type Rolldown } from "vite";
import react from "@vitejs/plugin-react";
import { transformAsync } from "@babel/core";
import { lingui } from "@lingui/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import { VitePWA, type ManifestOptions } from "vite-plugin-pwa";

const fromRoot = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const apiTarget = process.env.DEV_API_URL ?? "http://127.0.0.1:8001";

/**
 * Lingui macros run through Babel (plugin-react 6 has no babel option any more). This is
 * what @rolldown/plugin-babel does, limited to the macro: that package declares Node >= 22 and
 * these machines run Node 20. Only modules that import a Lingui macro are parsed; TypeScript
 * and JSX are left for Vite's own transform (Babel without a preset keeps them as they are).
 */
function linguiMacro(): Plugin {
  return {
    name: "lingui-macro",
    enforce: "pre",
    transform: {
      filter: { id: /\.[cm]?[jt]sx?$/, code: /@lingui\/(?:core|react)\/macro/ },
      async handler(code, id) {
        const file = id.split("?")[0]!;
        const syntax = /\.[cm]?tsx$/.test(file) ? ["typescript", "jsx"] : /\.[cm]?ts$/.test(file) ? ["typescript"] : ["jsx"];
        const result = await transformAsync(code, {
          filename: file,
          babelrc: false,
          configFile: false,
          sourceMaps: true,
          parserOpts: { sourceType: "module", plugins: syntax as ("typescript" | "jsx")[] },
          plugins: ["@lingui/babel-plugin-lingui-macro"],
        });
        return result?.code ? { code: result.code, map: result.map } : undefined;
      },
    },
  };
}
const linguiPlugins = (): PluginOption[] => [linguiMacro(), lingui()];

/**
 * What `files` import statically, at every level below them, in the order first met, leaving
 * out `known` (by default the files themselves); `importsOf` answers a chunk's own imports.
 */
function importsBelow(files: readonly string[], importsOf: (file: string) => readonly string[], known = new Set(files)): string[] {
  const found: string[] = [];
  const visit = (file: string) => {
    for (const imported of importsOf(file)) {
      if (known.has(imported)) continue;
      known.add(imported);
      found.push(imported);
      visit(imported);
    }
  };
  files.forEach(visit);
  return found;
}

/**
 * The boot shell is painted before the app's JavaScript runs, always, and nothing the app needs
 * is fetched ahead of that paint: the entry module, its imports (modulepreload) and the
 * stylesheet (a preload, applied by main.tsx's `applyStyles` before the app's first render, so
 * nothing is drawn unstyled) are asked for once the page is parsed and the next frame is out
 * (then a task, as ui/afterPaint.ts; a hidden tab paints no frame, so 500 ms at most). Without
 * this a fast network lets the entry run before the first paint, which then waits for it; on a
 * slow one the first paint shares the line with 150 KiB of downloads. A page a service worker
 * controls (every visit after the first) asks for them at once: the worker answers from its
 * cache, so there is no download to keep off the first paint, and an offline reload of the
 * practice page drew its question about 30 ms later waiting for that frame.
 */
/**
 * Screens a member reopens where they left off, offline too (an installed app starts on the page
 * it was closed on), with the modules they need beyond the route's own: the layout, the header's
 * MemberSync and the offline module.
 */
const SCREEN_MODULES: Record<string, string[]> = {
  "/exam/myPractice": ["src/client/app/memberHome.ts", "src/client/features/exam/PracticePage.tsx", "src/client/app/layouts/MemberSync.tsx", "src/client/offline/index.ts"],
};

/**
 * Per path of SCREEN_MODULES, the chunks that hold its modules and every chunk they import, all
 * levels, leaving out `loaded` (the entry's own): what the router and its lazy screens would ask
 * for level by level, one round trip each.
 */
function screenPreloads(bundle: Rolldown.OutputBundle | undefined, loaded: ReadonlySet<string>): Record<string, string[]> {
  const chunks = Object.values(bundle ?? {}).flatMap((file) => (file.type === "chunk" ? [file] : []));
  const importsOf = (file: string) => {
    const chunk = bundle?.[file];
    return chunk?.type === "chunk" ? chunk.imports : [];
  };
  return Object.fromEntries(
    Object.entries(SCREEN_MODULES).map(([pathname, modules]) => {
      const own = modules.map((module) => {
        const id = fromRoot(module);
        const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
        if (!chunk) throw new Error(`entryAfterFirstPaint: no chunk holds ${module}`);
        return chunk.fileName;
      });
      const files = [...new Set(own)];
      return [pathname, [...files, ...importsBelow(files, importsOf, new Set([...files, ...loaded]))].filter((file) => !loaded.has(file))];
    }),
  );
}

/**
 * Per language, the chunk of its client catalog (every screen's first render waits for it) and
 * those of its member and common catalogs (every member screen's route waits for them).
 */
function catalogPreloads(bundle: Rolldown.OutputBundle | undefined): Record<string, { client: string[]; member: string[] }> {
  const chunks = Object.values(bundle ?? {}).flatMap((file) => (file.type === "chunk" ? [file] : []));
  const fileOf = (language: string, area: string) => {
    const id = fromRoot(`locales/${language}/${area}.po`);
    const chunk = chunks.find((c) => c.facadeModuleId === id);
    if (!chunk) throw new Error(`entryAfterFirstPaint: no chunk holds ${language}/${area}.po`);
    return chunk.fileName;
  };
  return Object.fromEntries(["zh-cn", "en"].map((language) => [language, { client: [fileOf(language, "client")], member: [fileOf(language, "member"), fileOf(language, "common")] }]));
}

function entryAfterFirstPaint(): Plugin {
  return {
    name: "entry-after-first-paint",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler: (html, ctx) => {
        const entry = /<script type="module" crossorigin src="([^"]+\.js)"><\/script>/;
        const src = html.match(entry)?.[1];
        if (!src) throw new Error("entryAfterFirstPaint: the entry script was not found in index.html");
        const stylesheet = /<link rel="stylesheet" crossorigin href="([^"]+\.css)">/g;
        const styles = [...html.matchAll(stylesheet)].map((m) => `<link rel="preload" as="style" crossorigin href="${m[1]}" data-app-styles>`);
        if (styles.length === 0) throw new Error("entryAfterFirstPaint: the entry stylesheet's link was not found in index.html");
        const preloads = /\s*(<link rel="modulepreload"[^>]*>)/g;
        // The entry's static imports, all levels: build.modulePreload is off, so Vite writes no
        // links for them (any it writes are moved here too, above).
        const importsOf = (file: string) => {
          const chunk = ctx.bundle?.[file];
          return chunk?.type === "chunk" ? chunk.imports : [];
        };
        const imports = ctx.chunk ? importsBelow([ctx.chunk.fileName], importsOf) : [];
        const modules = imports.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
        const links = `<link rel="modulepreload" crossorigin href="${src}">` + [...html.matchAll(preloads)].map((m) => m[1]).join("") + modules.join("") + styles.join("");
        const screens = screenPreloads(ctx.bundle, new Set([...(ctx.chunk ? [ctx.chunk.fileName] : []), ...imports]));
        const catalogs = catalogPreloads(ctx.bundle);
        const start =
          `<script>(function(){var d=0,w=navigator.serviceWorker,c=w&&w.controller,r=[];` +
          `if(c){var g={};try{g=(JSON.parse(localStorage.getItem("storeConfig")||"{}").state||{}).lang||{}}catch(e){}` +
          `var C=${JSON.stringify(catalogs)}[/^en/i.test(g.defaultLang||"")?"en":"zh-cn"],S=${JSON.stringify(screens)}[location.pathname];r=C.client.concat(S?S.concat(C.member):[])}` +
          `function go(){if(d)return;d=1;document.head.insertAdjacentHTML("beforeend",${JSON.stringify(links)}+r.map(function(f){return'<link rel="modulepreload" crossorigin href="/'+f+'">'}).join(""));` +
          `var s=document.createElement("script");s.type="module";s.crossOrigin="";s.src="${src}";document.head.appendChild(s)}` +
          `function arm(){requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,500)}` +
          `c?go():document.readyState==="loading"?document.addEventListener("DOMContentLoaded",arm):arm()})()</script>`;
        return html.replace(preloads, "").replace(/\s*<link rel="stylesheet" crossorigin href="[^"]+\.css">/g, "").replace(entry, start);
      },
    },
  };
}

/**
 * Every chunk imports, besides its own imports, what they import in turn (Rollup's
 * `hoistTransitiveImports`, which Rolldown does not do): a screen's chunk names every file it
 * needs, so the browser asks for all of them once that chunk has arrived instead of one level of
 * imports per round trip. Vite's preload helper did this by listing every lazy chunk's files in
 * the entry (`build.modulePreload`), 1.4 KiB gzipped on every first visit; it is off.
 * An import of a module that is loaded anyway only moves its download earlier; modules still
 * evaluate after what they import (the added imports come last, after the chunk's own).
 */
function hoistTransitiveImports(): Plugin {
  return {
    name: "hoist-transitive-imports",
    apply: "build",
    renderChunk(code, chunk, _options, meta) {
      const hoisted = importsBelow(chunk.imports, (file) => meta.chunks[file]?.imports ?? [], new Set([...chunk.imports, chunk.fileName]));
      if (hoisted.length === 0) return null;
      const dir = chunk.fileName.slice(0, chunk.fileName.lastIndexOf("/") + 1);
      const imports = hoisted.map((file) => `import"./${file.startsWith(dir) ? file.slice(dir.length) : file}";`).join("");
      // At the end: import declarations take effect wherever they stand, and code that does not
      // move keeps its source map (`map: null`).
      return { code: `${code}\n${imports}`, map: null };
    },
  };
}

/**
 * A gzipped copy (`name.gz`, level 9) beside each text file of the built client over 1 KiB:
 * the server sends it as it is (@fastify/static's `preCompressed`, src/server/plugins/client.ts)
 * instead of compressing the same bytes again for every visitor (CPU per request, and
 * the level is the best, not the quick one a response can afford).
 */
function precompress(): Plugin {
  const gzipAsync = promisify(gzip);
  return {
    name: "precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const dir = options.dir ?? fromRoot("./dist/client");
      const files = Object.keys(bundle).filter((file) => /\.(?:m?js|css|html|svg|json|webmanifest)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const data = await fs.promises.readFile(path.join(dir, file));
          if (data.length < 1024) return;
          await fs.promises.writeFile(path.join(dir, `${file}.gz`), await gzipAsync(data, { level: 9 }));
        }),
      );
    },
  };
}

/**
 * The server's threads are plain JavaScript that the server starts from next to its bundle
 * (`new URL("./pglite-worker.mjs", import.meta.url)`): the embedded database's
 * (src/server/db/pglite-worker.mjs, from db/pglite.ts) and the spreadsheet reader's
 * (src/server/crud/resources/sheet-worker.mjs, from crud/resources/questionSheet.ts), and the
 * embedded database's options the first imports (src/server/db/pglite-options.mjs). Every server
 * build carries them there, as they are.
 */
function serverWorkers(): Plugin {
  const workers = { "pglite-worker.mjs": "./src/server/db/pglite-worker.mjs", "pglite-options.mjs": "./src/server/db/pglite-options.mjs", "sheet-worker.mjs": "./src/server/crud/resources/sheet-worker.mjs" };
  return {
    name: "server-workers",
    apply: "build",
    generateBundle() {
      for (const [fileName, source] of Object.entries(workers)) this.emitFile({ type: "asset", fileName, source: fs.readFileSync(fromRoot(source), "utf8") });
    },
  };
}

/**
 * Every module the entry imports statically (react-dom, Lingui, the stores) and the app it sets
 * up (app/App.tsx: the router, react-router, the root layout), and the icons' base and Vite's
 * preload helper that every first screen uses, go
 * into one chunk, `app`: all of it is loaded on every first visit anyway. Rolldown otherwise
 * files modules by which lazy chunks also reach them: react alone, Lingui's core alone, zustand
 * alone, the preload helper alone... 9 files on every first visit, each gzipped apart (no shared
 * dictionary) and tied by import and export glue. One chunk: 2.9 KiB less on `/`, 2.6 KiB on
 * `/admin/login` (tests/bench/HISTORY.md, stop 34). Rolldown's runtime stays its own small file (a group
 * does not take it).
 */
function firstLoadChunk(alsoRoots: string[]): { plugin: Plugin; test: (id: string) => boolean } {
  const ownModules = new Set<string>();
  // Libraries by name: a package's barrel file (lucide-react's) would bring every module it
  // re-exports into the closure below, and with them code only lazy chunks use.
  const libraries = /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|@lingui[\\/]core|@lingui[\\/]react|zustand|lucide-react[\\/]dist[\\/]esm[\\/](createLucideIcon|defaultAttributes|Icon|shared[\\/]\w+))[\\/.]/;
  const preloadHelper = /^\0vite[\\/]preload-helper/;
  const plugin: Plugin = {
    name: "first-load-chunk",
    apply: "build",
    buildEnd() {
      ownModules.clear();
      const seen = new Set<string>();
      const queue = [...[...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry), ...alsoRoots];
      while (queue.length > 0) {
        const id = queue.pop()!;
        if (seen.has(id) || /node_modules/.test(id)) continue;
        seen.add(id);
        ownModules.add(id);
        queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
  return { plugin, test: (id) => ownModules.has(id) || libraries.test(id) || preloadHelper.test(id) };
}
// main.tsx imports the app (app/App.tsx) with import(), to set it up in a task of its own: it is part
// of every first load all the same.
const firstLoad = firstLoadChunk([fromRoot("./src/client/app/App.tsx")]);

/**
 * The web app manifest (vite-plugin-pwa writes it, /manifest.webmanifest, linked from
 * index.html). The site's language is zh-cn, so are its name and words: what the install dialog,
 * the home screen and the app switcher show. The short name, under the icon, is the brand, the
 * same in every language.
 */
const MANIFEST = {
  id: "/",
  name: "ExamHub 在线课程与考试",
  short_name: "ExamHub",
  description: "在线课程、练习与考试，没有网络也能继续学。",
  lang: "zh-CN",
  dir: "ltr",
  start_url: "/",
  scope: "/",
  display: "standalone",
  orientation: "any",
  theme_color: "#2563eb",
  background_color: "#f8fafc",
  // The install dialog's screenshots (made by `npm run screenshots`; not precached).
  screenshots: [
    { src: "/screenshots/desktop-zh-cn.png", sizes: "1280x800", type: "image/png", form_factor: "wide", label: "ExamHub 电脑版" },
    { src: "/screenshots/phone-zh-cn.png", sizes: "390x844", type: "image/png", form_factor: "narrow", label: "ExamHub 手机版" },
  ],
  icons: [
    { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
    { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
    { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
  ],
} satisfies Partial<ManifestOptions>;

/**
 * The same app (the same id) in English, /manifest-en.webmanifest: the page links it instead for a
 * member whose language is English (pwa/install.ts, linkManifest), so the install dialog speaks it.
 */
const ENGLISH_MANIFEST_FILE = "manifest-en.webmanifest";
const ENGLISH_MANIFEST = {
  ...MANIFEST,
  name: "ExamHub — courses and exams",
  description: "Online courses, practice and exams that keep working offline.",
  lang: "en",
  screenshots: MANIFEST.screenshots.map((shot) => ({ ...shot, label: shot.form_factor === "wide" ? "ExamHub on a computer" : "ExamHub on a phone" })),
};

/** Writes the English manifest beside the one vite-plugin-pwa writes (and the service worker precaches both). */
function englishManifest(): Plugin {
  return {
    name: "english-manifest",
    apply: "build",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: ENGLISH_MANIFEST_FILE, source: `${JSON.stringify(ENGLISH_MANIFEST, null, 2)}\n` });
    },
  };
}

/**
 * One config, three uses:
 * - client build / dev server (root src/client, output dist/client, PWA),
 * - server build (`vite build --ssr`, output dist/server; dependencies stay external),
 * - vitest (`test` below; projects for node and browser-like tests).
 */
export default defineConfig(({ isSsrBuild, mode }) => {
  if (isSsrBuild) {
    return {
      root: fromRoot("./"),
      publicDir: false,
      plugins: [...linguiPlugins(), serverWorkers()],
      // The server's libraries go into its bundle: read as a few files, not as thousands of
      // modules each resolved, read and compiled apart (a start's largest part: about a quarter
      // less CPU to listen, docs/performance.md "Start-up"). Kept outside: PGlite (its worker
      // and WebAssembly files are found beside its own code), the PostgreSQL driver and the
      // S3 and spreadsheet libraries, each loaded only when used; and every package the server
      // loads on first use with lazyRequire (a runtime require, never bundled).
      ssr: { noExternal: true, external: ["@electric-sql/pglite", "pg", "@aws-sdk/client-s3", "exceljs"] },
      build: {
        ssr: true,
        outDir: fromRoot("./dist/server"),
        emptyOutDir: true,
        target: "node20",
        sourcemap: true,
        minify: false,
        // Chunks (what main.ts imports once the database is opening, the PostgreSQL driver) sit
        // beside main.js, so the paths code finds from its own URL (the worker threads' files,
        // seed-media/) are the same from every chunk.
        rolldownOptions: { output: { chunkFileNames: "[name]-[hash].js" } },
      },
    };
  }

  const isTest = mode === "test";
  const nodeTests = {
    environment: "node" as const,
    setupFiles: ["tests/setup/node.ts"],
    globalSetup: ["tests/setup/database.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  };
  const ALONE = ["tests/server/attempt-storage.test.ts"];
  return {
    root: isTest ? fromRoot("./") : fromRoot("./src/client"),
    publicDir: fromRoot("./public"),
    envDir: fromRoot("./"),
    plugins: [
      react(),
      ...linguiPlugins(),
      tailwindcss(),
      entryAfterFirstPaint(),
      firstLoad.plugin,
      hoistTransitiveImports(),
      !isTest && precompress(),
      !isTest && englishManifest(),
      !isTest &&
        VitePWA({
          strategies: "injectManifest",
          srcDir: ".",
          filename: "sw.ts",
          injectRegister: false,
          registerType: "prompt",
          manifest: MANIFEST,
          injectManifest: {
            globPatterns: ["**/*.{js,css,html,svg,png,ico,webmanifest,woff2}"],
            // hls.js (its own chunk, loaded only for HLS lessons) is not precached: every install
            // would download it for nothing. The service worker keeps it once it has been loaded
            // (sw.ts, LAZY_ASSETS_CACHE), so an HLS lesson saved for offline plays offline.
            // The same for the face detector (@vladmandic/human, about 2 MB, only on screens with a camera).
            globIgnores: ["**/node_modules/**", "sw.js", "workbox-*.js", "screenshots/**", "assets/hls-*.js", "assets/human*.js"],
          },
          devOptions: { enabled: false },
        }),
    ],
    build: {
      outDir: fromRoot("./dist/client"),
      emptyOutDir: true,
      target: "es2022",
      sourcemap: false,
      // No preload helper listing every lazy chunk's files in the entry (1.4 KiB gzipped on every
      // first visit): hoistTransitiveImports above lets a lazy chunk name all it needs, and
      // entryAfterFirstPaint preloads the entry's own imports.
      modulePreload: false,
      rolldownOptions: {
        output: {
          codeSplitting: {
            // Automatic code splitting made about 250 chunks, many of them a few hundred bytes
            // shared by two screens (an icon, a button): the member home asked for 37 files
            // before it was usable, and every file costs the browser a request and about 1 ms of
            // main thread at 1x (4 ms on a slow phone) to start loading it, on top of the network
            // round trips. Common chunks under 8 KiB (source size) are copied into the chunks
            // that use them instead, with one shared runtime, so a module still has one state:
            // 127 chunks in all, for about 10 % more bytes in all chunks together (the service
            // worker's precache). Figures: tests/bench/HISTORY.md, stop 31.
            experimentalInlineCommonChunks: { maxSize: 8 * 1024 },
            // What every first visit loads, in one chunk (firstLoadChunk above): 5 files on the
            // home and on the back-office login, about 130 in all.
            groups: [{ name: "app", test: firstLoad.test, priority: 10 }],
          },
        },
      },
    },
    server: {
      host: "127.0.0.1",
      port: 5173,
      proxy: {
        "/api": { target: apiTarget, changeOrigin: true },
        "/storage": { target: apiTarget, changeOrigin: true },
        "/face-models": { target: apiTarget, changeOrigin: true },
        "/face-wasm": { target: apiTarget, changeOrigin: true },
        // /admin is both the back office's pages and its API: pages (HTML navigations) stay
        // with Vite, API calls go to the server.
        "/admin": {
          target: apiTarget,
          changeOrigin: true,
          bypass: (req) => (req.headers.accept?.includes("text/html") ? req.url : undefined),
        },
      },
    },
    test: {
      // Vitest's default is one worker fewer than the cores, which is one worker on these 2-core
      // machines; test files spend much of their time waiting (on PostgreSQL, on a server child
      // process, on timers), so two share the cores well.
      maxWorkers: Math.max(2, os.availableParallelism() - 1),
      projects: [
        {
          extends: true,
          test: {
            name: "node",
            ...nodeTests,
            // Server test files share their worker's loaded modules (the server's whole module
            // graph was imported again for each of about 90 files, a third of the suite's time):
            // each file builds its own app on its own database, and the few module-level
            // settings (clock, captcha observer) are put back by the files that change them.
            isolate: false,
            include: ["tests/server/**/*.test.ts", "tests/shared/**/*.test.ts", "tests/api/**/*.test.ts"],
            exclude: ["**/node_modules/**", ...ALONE],
          },
        },
        {
          // Files that measure what the database server does with a table (which row versions
          // it can prune) run after the others and one at a time: another file's open
          // transaction on the same PostgreSQL changes what they measure.
          extends: true,
          test: { name: "node-alone", ...nodeTests, include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
        },
        {
          extends: true,
          test: {
            name: "client",
            environment: "happy-dom",
            include: ["tests/client/**/*.test.{ts,tsx}"],
            setupFiles: ["tests/setup/client.ts"],
            // Screen tests click through whole forms; on a loaded 2-core machine 5 s is too tight.
            testTimeout: 20_000,
          },
        },
      ],
    },
  };
});
