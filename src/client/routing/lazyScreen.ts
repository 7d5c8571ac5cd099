import { lazy, type ComponentType, type LazyExoticComponent } from "react";

/** How to download each registered screen's chunk, by the lazy component. */
const preloads = new WeakMap<object, () => Promise<unknown>>();

/**
 * A screen registry entry (admin/screens.ts, user/screens.ts): a lazy chunk that can also be
 * asked for before it renders (preloadScreen).
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>): LazyExoticComponent<ComponentType> {
  return withPreload(lazy(load), load);
}

/** Registers how to download `screen`'s chunk ahead of its first render; returns `screen`. */
export function withPreload<S extends object>(screen: S, load: () => Promise<unknown>): S {
  preloads.set(screen, load);
  return screen;
}

/**
 * Starts downloading a registered screen's chunk now (a failure is left for its render to meet):
 * a menu route waits for the menu rules before it renders, and its chunk can come meanwhile.
 */
export function preloadScreen(screen: object | undefined): void {
  const load = screen ? preloads.get(screen) : undefined;
  if (load) void load().catch(() => undefined);
}
