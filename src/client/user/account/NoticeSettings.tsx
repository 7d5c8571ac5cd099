import { useId } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Megaphone } from "lucide-react";
import { DEFAULT_NOTICE_PREFERENCE, type NoticePreference } from "../../../shared/noticeFacts.ts";
import { request } from "../../api/index.ts";
import { useOnline } from "../../browser/useOnline.ts";

const queryKey = ["notice", "preference"] as const;

/**
 * The member center's notice switches: each kind of notice (a room opens, a room closes soon,
 * a result is published) on or off, and whether notices also come by push and by email. Saved at
 * once; offline they show what was last known and wait.
 */
export function NoticeSettings() {
  const { t } = useLingui();
  const id = useId();
  const online = useOnline();
  const queryClient = useQueryClient();
  const pref = useQuery({
    queryKey,
    queryFn: async ({ signal }) => (await request<NoticePreference>({ url: "/api/notice/preference", method: "get", signal }, { showErrorMessage: false, showCodeMessage: false })).data,
    enabled: online,
  });
  const value = pref.data ?? DEFAULT_NOTICE_PREFERENCE;

  async function change(key: keyof NoticePreference, on: boolean) {
    const next = { ...value, [key]: on };
    queryClient.setQueryData(queryKey, next);
    try {
      await request({ url: "/api/notice/preference", method: "post", data: next });
    } finally {
      await queryClient.invalidateQueries({ queryKey });
    }
  }

  const switches: { key: keyof NoticePreference; label: string }[] = [
    { key: "room_open", label: t`An exam room opens for me` },
    { key: "room_closing", label: t`An exam room I have not sat closes soon` },
    { key: "result", label: t`My exam result is published` },
    { key: "push", label: t`Also as a push notification (where reminders are on)` },
    { key: "email", label: t`Also by email (when I have an email address)` },
  ];
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <h2 id={`${id}-title`} className="flex items-center gap-2 text-lg font-semibold">
        <Megaphone aria-hidden className="size-5 text-primary dark:text-blue-400" />
        <Trans>Notice settings</Trans>
      </h2>
      {!online && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <Trans>Notice settings can be changed when you are online.</Trans>
        </p>
      )}
      <ul className="space-y-1">
        {switches.map((s) => (
          <li key={s.key}>
            <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm">
              <input
                type="checkbox"
                className="size-5 shrink-0 accent-primary"
                checked={value[s.key]}
                disabled={!online || pref.isPending}
                onChange={(e) => void change(s.key, e.target.checked)}
              />
              <span>{s.label}</span>
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}
