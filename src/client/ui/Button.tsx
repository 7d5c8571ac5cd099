import type { ButtonHTMLAttributes, Ref } from "react";

/**
 * - primary / secondary / danger / ghost: the filled, outlined, destructive and quiet actions;
 * - dangerGhost: a quiet destructive action (a remove or delete icon in a row or a list item),
 *   where a filled red button on every row would shout;
 * - link: an action that reads as a link inside text (underlined, no padding);
 * - bare: no look of its own beyond the focus ring and the disabled state, for a clickable tile,
 *   thumbnail or row whose caller draws the content (still a real, focusable button).
 */
export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost" | "dangerGhost" | "link" | "bare";
/** md: 44 px touch target; sm: 36 px, for dense rows; icon / iconSm: square 44 / 36 px for one icon (give it an aria-label). */
export type ButtonSize = "md" | "sm" | "icon" | "iconSm";

const focus = "outline-none focus-visible:ring-2 focus-visible:ring-primary focus-visible:ring-offset-2 dark:focus-visible:ring-offset-slate-900";
const disabled = "disabled:cursor-not-allowed disabled:opacity-60";
const sizes: Record<ButtonSize, string> = {
  md: "min-h-11 px-4",
  sm: "min-h-9 px-3 text-sm",
  icon: "size-11 shrink-0",
  iconSm: "size-9 shrink-0",
};
const variants: Record<ButtonVariant, string> = {
  primary: "bg-primary text-white hover:bg-primary-strong",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  danger: "bg-red-600 text-white hover:bg-red-700 dark:bg-red-700 dark:hover:bg-red-600",
  ghost: "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800",
  dangerGhost: "text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950",
  link: "text-primary underline-offset-2 hover:underline",
  bare: "",
};

/**
 * The button look for something that is not a <button> (a router link that reads as an action),
 * or for a caller that must hand a class string on (a Radix trigger rendered asChild).
 */
export function buttonClass(variant: ButtonVariant = "secondary", className = "", size: ButtonSize = "md"): string {
  if (variant === "bare") return `${focus} ${disabled} ${className}`.trim();
  if (variant === "link") return `inline ${focus} rounded-sm ${disabled} ${variants.link} ${className}`.trim();
  return `inline-flex items-center justify-center gap-2 rounded-md font-medium ${sizes[size]} ${focus} ${disabled} ${variants[variant]} ${className}`.trim();
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: ButtonSize; ref?: Ref<HTMLButtonElement> };

/** The app's button (focus ring, dark mode, a 44 px touch target unless `size` says otherwise); `type` defaults to "button". */
export function Button({ variant = "secondary", size = "md", className = "", type = "button", ref, ...props }: ButtonProps) {
  return <button ref={ref} type={type} className={buttonClass(variant, className, size)} {...props} />;
}

/** The filled look of the chosen one among several (a category chip, the open tab). */
export const selectedClass = "bg-primary-strong text-white";
