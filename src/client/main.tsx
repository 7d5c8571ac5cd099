import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import { activateLanguage, storedLanguage } from "./i18n/index.ts";
import { loadSiteConfig } from "./app/siteConfig.ts";
import "./styles.css";

async function start(): Promise<void> {
  await activateLanguage(storedLanguage());
  const root = document.getElementById("root");
  if (!root) throw new Error("The page has no #root element");
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  // The service worker (workbox-window) is not needed to show the first screen: registered once
  // the page has loaded (as workbox recommends), its code fetched then.
  const register = () => void import("./pwa/register.ts").then(({ registerServiceWorker }) => registerServiceWorker());
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
  void loadSiteConfig();
}

void start();
