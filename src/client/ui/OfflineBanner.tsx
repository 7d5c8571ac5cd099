import { Trans } from "@lingui/react/macro";
import { WifiOff } from "lucide-react";
import { useOnline } from "../browser/useOnline.ts";

/** "You are disconnected!" while the device is offline (SPEC §8). */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div role="status" className="flex items-center justify-center gap-2 bg-amber-100 px-4 py-2 text-sm font-medium text-amber-900">
      <WifiOff aria-hidden className="size-4" />
      <Trans>You are disconnected!</Trans>
    </div>
  );
}
