import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { activateLanguage, onLanguageChange, storedLanguage } from "./i18n/index.ts";
import { nextTask } from "./browser/nextTask.ts";
import { linkManifest, watchInstall } from "./pwa/install.ts";
import { openMemberDataEarly } from "./app/memberStart.ts";
import "./styles.css";

/**
 * The stylesheet index.html preloads without blocking the first paint (vite.config.ts,
 * entryAfterFirstPaint), applied before the app first renders. A stylesheet that fails to load
 * does not stop the app. In development Vite injects the styles itself (no such link).
 */
function applyStyles(): Promise<void> {
  const preloads = [...document.querySelectorAll<HTMLLinkElement>("link[data-app-styles]")];
  return Promise.all(
    preloads.map(
      (preload) =>
        new Promise<void>((resolve) => {
          const sheet = document.createElement("link");
          sheet.rel = "stylesheet";
          sheet.crossOrigin = "anonymous";
          sheet.href = preload.href;
          sheet.addEventListener("load", () => resolve(), { once: true });
          sheet.addEventListener("error", () => resolve(), { once: true });
          document.head.appendChild(sheet);
        }),
    ),
  ).then(() => undefined);
}

async function start(): Promise<void> {
  // The app is set up in tasks of its own, after this one has evaluated React and asked for the
  // catalog and the stylesheet (Total Blocking Time counts what each task spends over 50 ms on a
  // phone): first the root layout with react-router and the stores, then the route table and the
  // router, which matches the address and starts loading the first screen. All of it is in the
  // entry's chunk (vite.config.ts, firstLoadChunk): nothing more is downloaded.
  const app = nextTask()
    .then(() => import("./app/RootLayout.tsx"))
    .then(nextTask)
    .then(() => import("./app/App.tsx"));
  const [{ App }] = await Promise.all([app, activateLanguage(storedLanguage()), applyStyles()]);
  const root = document.getElementById("root");
  if (!root) throw new Error("The page has no #root element");
  // A transition: React renders the first screen in slices (yielding to the browser every few
  // milliseconds) instead of one long task, so a tap or a keypress during start-up is not held back.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}

// The browser's install offer can come before any screen is up, once: kept from the start.
watchInstall();
linkManifest(storedLanguage());
onLanguageChange((language) => linkManifest(language));
void start();
openMemberDataEarly();
