import { useLingui } from "@lingui/react/macro";
import { DropdownMenu } from "radix-ui";
import { ChevronDown, Download } from "lucide-react";
import { Link } from "react-router-dom";
import { useUserInfo } from "../../stores/userInfo.ts";
import { promptInstall, useInstallWay } from "../../pwa/install.ts";
import { logoutMember } from "../../user/session.ts";
import { MemberAvatar } from "./MemberAvatar.tsx";

/** The signed-in member's account menu in the header (loaded only for signed-in members). */
export default function AccountDropdown() {
  const { t } = useLingui();
  const name = useUserInfo((s) => s.nickname || s.username);
  // A computer's browser that offered its install dialog (on iOS the phone menu explains the way).
  const canPrompt = useInstallWay() === "prompt";
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="inline-flex min-h-11 items-center gap-1.5 rounded-md px-3 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary dark:hover:bg-slate-800">
        <MemberAvatar />
        <span className="max-w-32 truncate">{name}</span>
        <ChevronDown aria-hidden className="size-4" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={4} className="z-50 min-w-44 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <DropdownMenu.Item asChild>
            <Link to="/user" className="flex min-h-11 items-center rounded px-3 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800">
              {t`Member center`}
            </Link>
          </DropdownMenu.Item>
          {canPrompt && (
            <DropdownMenu.Item
              onSelect={() => void promptInstall()}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded px-3 text-sm outline-none data-[highlighted]:bg-slate-100 dark:data-[highlighted]:bg-slate-800"
            >
              <Download aria-hidden className="size-4" />
              {t`Install the app`}
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Item
            onSelect={() => void logoutMember()}
            className="flex min-h-11 cursor-pointer items-center rounded px-3 text-sm text-red-700 outline-none data-[highlighted]:bg-red-50 dark:text-red-400 dark:data-[highlighted]:bg-slate-800"
          >
            {t`Log out`}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
