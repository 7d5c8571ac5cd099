import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import { activateLanguage, storedLanguage } from "./i18n/index.ts";
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
  await Promise.all([activateLanguage(storedLanguage()), applyStyles()]);
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

void start();
