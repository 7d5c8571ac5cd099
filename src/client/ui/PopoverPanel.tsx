import { Popover } from "radix-ui";
import type { ComponentProps } from "react";

/**
 * A popover's panel (Radix Popover.Content in a portal), raised above the page with the app's
 * border and shadow: 4 px from its trigger and kept 8 px inside the screen unless told otherwise.
 * `className` adds the panel's own shape (corners, padding, width, dark background).
 */
export function PopoverPanel({ className = "", sideOffset = 4, collisionPadding = 8, ...props }: ComponentProps<typeof Popover.Content>) {
  return (
    <Popover.Portal>
      <Popover.Content sideOffset={sideOffset} collisionPadding={collisionPadding} className={`z-50 border border-slate-200 bg-white shadow-lg dark:border-slate-700 ${className}`} {...props} />
    </Popover.Portal>
  );
}
