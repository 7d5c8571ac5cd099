/** The phone menu's button: the same look before its sheet loads (MemberLayout) and after (PhoneMenuSheet). */
export const PHONE_MENU_BUTTON =
  "relative inline-flex size-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary sm:hidden dark:text-slate-200 dark:hover:bg-slate-800";
