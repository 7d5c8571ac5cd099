import { create } from "zustand";
import type { Language } from "../../shared/constants.ts";

/** Chromium's install offer (not in TypeScript's DOM types): shown once, by `prompt()`. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: "accepted" | "dismissed"; platform?: string }>;
}

/**
 * How the app can be installed here:
 * - "prompt": the browser offered its install dialog (`beforeinstallprompt`), kept for a button;
 * - "ios": iOS has no such dialog: the app goes on the home screen from the share sheet, so the
 *   member is told how;
 * - "none": installed already, opened as the installed app, or a browser that offers neither.
 */
export type InstallWay = "prompt" | "ios" | "none";

interface InstallState {
  offer: BeforeInstallPromptEvent | null;
  /** Installed in this visit (`appinstalled`) or opened as the installed app. */
  installed: boolean;
}

export const useInstallState = create<InstallState>()(() => ({ offer: null, installed: false }));

/** Opened from the home screen or as an installed app (iOS Safari's own flag for its home-screen apps). */
export function isStandalone(win: Window = window): boolean {
  const media = typeof win.matchMedia === "function" && (win.matchMedia("(display-mode: standalone)").matches || win.matchMedia("(display-mode: fullscreen)").matches);
  return media || (win.navigator as Navigator & { standalone?: boolean }).standalone === true;
}

/** iPhone, iPod or iPad (iPadOS says it is a Mac, but a Mac has no touch screen). */
export function isIos(nav: Pick<Navigator, "userAgent" | "maxTouchPoints"> = navigator): boolean {
  return /iPhone|iPad|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1);
}

export function installWay(state: InstallState, standalone: boolean, ios: boolean): InstallWay {
  if (state.installed || standalone) return "none";
  if (state.offer) return "prompt";
  return ios ? "ios" : "none";
}

/** The way to install on this device now, updated when the browser's offer comes or goes. */
export function useInstallWay(): InstallWay {
  const state = useInstallState();
  return installWay(state, isStandalone(), isIos());
}

/**
 * Shows the browser's install dialog (the offer is good once): the member's answer. Accepted,
 * `appinstalled` follows and the button goes; dismissed, the browser may offer again later.
 */
export async function promptInstall(): Promise<"accepted" | "dismissed" | "unavailable"> {
  const { offer } = useInstallState.getState();
  if (!offer) return "unavailable";
  useInstallState.setState({ offer: null });
  await offer.prompt();
  const { outcome } = await offer.userChoice;
  if (outcome === "accepted") useInstallState.setState({ installed: true });
  return outcome;
}

/**
 * Keeps the browser's install offer instead of letting it show its own mini-infobar at a moment
 * of its choosing: the app offers the install where the member looks for it (the menu).
 * Listened for from the first screen on (the offer can come early, once).
 */
export function watchInstall(win: Window = window): () => void {
  const onOffer = (event: Event) => {
    event.preventDefault();
    useInstallState.setState({ offer: event as BeforeInstallPromptEvent });
  };
  const onInstalled = () => useInstallState.setState({ offer: null, installed: true });
  win.addEventListener("beforeinstallprompt", onOffer);
  win.addEventListener("appinstalled", onInstalled);
  return () => {
    win.removeEventListener("beforeinstallprompt", onOffer);
    win.removeEventListener("appinstalled", onInstalled);
  };
}

/** The manifest in each language (vite.config.ts writes both; the site's own, zh-cn, is the default). */
const MANIFESTS: Record<Language, string> = { "zh-cn": "/manifest.webmanifest", en: "/manifest-en.webmanifest" };

/**
 * Links the manifest in the member's language (again on a change of language), so an
 * English-speaking member installs "ExamHub — courses and exams", not its Chinese name. Both have
 * the same id: one app, whichever was read.
 */
export function linkManifest(language: Language, doc: Document = document): void {
  const link = doc.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (link) link.setAttribute("href", MANIFESTS[language]);
}
