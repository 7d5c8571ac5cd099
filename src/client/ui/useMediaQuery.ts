import { useSyncExternalStore } from "react";

/** Whether a CSS media query matches now, updated when it changes (false where matchMedia is missing). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== "function") return () => {};
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => (typeof window.matchMedia === "function" ? window.matchMedia(query).matches : false),
  );
}

/** Screens narrower than Tailwind's `md` (768 px): phones and small tablets. */
export const SMALL_SCREEN = "(max-width: 767.98px)";

/** Some pointing device is precise (a mouse, a trackpad): the device likely has a keyboard too. */
export const FINE_POINTER = "(any-pointer: fine)";
