import type { ButtonProps } from "../../ui/Button.tsx";

/** The phone menu's button: the same look before its sheet loads (MemberLayout) and after (PhoneMenuSheet). */
export const PHONE_MENU_BUTTON = { variant: "ghost", size: "icon", className: "relative sm:hidden" } as const satisfies ButtonProps;
