import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import { activateLanguage, storedLanguage } from "./i18n/index.ts";
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
}

void start();
