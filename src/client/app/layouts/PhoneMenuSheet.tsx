import { Trans, useLingui } from "@lingui/react/macro";
import { Dialog } from "radix-ui";
import { LogIn, LogOut, Menu, X } from "lucide-react";
import { Link } from "react-router-dom";
import { useUserInfo } from "../../stores/userInfo.ts";
import { Button, buttonClass } from "../../ui/Button.tsx";
import { LanguageSwitch } from "../../ui/LanguageSwitch.tsx";
import { InstallEntry } from "../../pwa/InstallEntry.tsx";
import { logoutMember } from "../../user/session.ts";
import { MemberAvatar } from "./MemberAvatar.tsx";
import { PHONE_MENU_BUTTON } from "./headerStyles.ts";
import { MainLinks, MenuDueBadge } from "./MainLinks.tsx";

const sheetLinkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-11 items-center rounded-md px-3 text-base ${isActive ? "bg-blue-50 font-medium text-primary-strong dark:bg-slate-800 dark:text-blue-300" : "text-slate-800 hover:bg-slate-100 dark:text-slate-100 dark:hover:bg-slate-800"}`;

/**
 * The phone menu's sheet (Radix Dialog): loaded when the menu button is first used, so a first
 * visit does not download the dialog's code (focus trap, scroll lock) before its screen works.
 */
export default function PhoneMenuSheet({ open, onOpenChange, close }: { open: boolean; onOpenChange(open: boolean): void; close(): void }) {
  const { t } = useLingui();
  const loggedIn = useUserInfo((s) => Boolean(s.id && s.token));
  const name = useUserInfo((s) => s.nickname || s.username);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <Button {...PHONE_MENU_BUTTON}>
          <Menu aria-hidden className="size-6" />
          <span className="sr-only">{t`Menu`}</span>
          <MenuDueBadge />
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-x-0 top-0 z-50 max-h-[100dvh] overflow-y-auto rounded-b-2xl bg-white p-4 pt-2 shadow-xl outline-none dark:bg-slate-900 dark:text-slate-100"
        >
          <div className="flex items-center justify-between">
            <Dialog.Title className="text-base font-semibold">{t`Menu`}</Dialog.Title>
            <Dialog.Close className={buttonClass("ghost", "", "icon")} aria-label={t`Close the menu`}>
              <X aria-hidden className="size-5" />
            </Dialog.Close>
          </div>
          <nav aria-label={t`Main`} className="mt-1 flex flex-col gap-1">
            <MainLinks className={sheetLinkClass} onNavigate={close} />
          </nav>
          <div className="mt-3 border-t border-slate-200 px-3 pt-3 dark:border-slate-700">
            <LanguageSwitch showLabel onChanged={close} />
          </div>
          <InstallEntry />
          <div className="mt-2 border-t border-slate-200 pt-2 dark:border-slate-700">
            {loggedIn ? (
              <>
                <p className="flex min-h-11 items-center gap-2 px-3 text-sm text-slate-600 dark:text-slate-300">
                  <MemberAvatar />
                  <span className="truncate">{name}</span>
                </p>
                <Button
                  variant="bare"
                  onClick={() => void logoutMember()}
                  className="flex min-h-11 w-full items-center gap-2 rounded-md px-3 text-left text-base text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-slate-800"
                >
                  <LogOut aria-hidden className="size-4" />
                  {t`Log out`}
                </Button>
              </>
            ) : (
              <Link to="/" onClick={close} className="flex min-h-11 items-center gap-2 rounded-md px-3 text-base text-primary-strong hover:bg-blue-50 dark:text-blue-300">
                <LogIn aria-hidden className="size-4" />
                <Trans>Log in</Trans>
              </Link>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
