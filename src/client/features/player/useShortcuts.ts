import { useEffect, useEffectEvent } from "react";
import { keyBelongsToTarget, shortcutAction, type PlayerAction } from "./controls.ts";

/**
 * The player's keyboard layer on the whole page (shortcutAction maps the keys): a key is left
 * alone when something already handled it or when it belongs to the focused control (text
 * fields, menus, sliders, Space and Enter on buttons and links: keyBelongsToTarget); otherwise
 * its default (Space scrolling the page...) is prevented and `perform` gets the action.
 */
export function usePlayerShortcuts(perform: (action: PlayerAction) => void): void {
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented) return;
    const action = shortcutAction(event);
    if (!action || keyBelongsToTarget(event.target, event.key)) return;
    event.preventDefault();
    perform(action);
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);
}
