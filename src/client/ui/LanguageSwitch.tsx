import { useLingui } from "@lingui/react/macro";
import { Languages } from "lucide-react";
import { LANGUAGES, isLanguage, type Language } from "../../shared/constants.ts";
import { changeLanguage } from "../i18n/index.ts";
import { toast } from "./toast.ts";

// Each language is named in its own words, whatever the interface language is.
// eslint-disable-next-line lingui/no-unlocalized-strings
const LABELS: Record<Language, string> = { "zh-cn": "简体中文", en: "English" };

/**
 * Language choice; choosing stores it and shows the page again in it, without reloading the
 * document (SPEC §1, i18n/index.ts). `showLabel` shows the word "Language"; `onChanged` runs once
 * the page is in the new language (the phone menu closes, as the reload used to close it).
 */
export function LanguageSwitch({ showLabel = false, onChanged }: { showLabel?: boolean; onChanged?: () => void }) {
  const { t, i18n } = useLingui();
  return (
    <label className="flex min-h-11 items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
      <Languages aria-hidden className="size-4" />
      <span className={showLabel ? "flex-1" : "sr-only"}>{t`Language`}</span>
      <select
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5 focus-visible:outline-2 focus-visible:outline-primary dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
        value={i18n.locale}
        onChange={(e) => {
          if (!isLanguage(e.target.value)) return;
          // Offline with the other language's messages not saved on the device: it stays as it is.
          changeLanguage(e.target.value).then(onChanged, () => toast.error(t`The language could not be changed: its messages did not load. Try again when online.`));
        }}
      >
        {LANGUAGES.map((lang) => (
          <option key={lang} value={lang}>
            {LABELS[lang]}
          </option>
        ))}
      </select>
    </label>
  );
}
