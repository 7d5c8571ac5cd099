import { useLingui } from "@lingui/react/macro";
import { Languages } from "lucide-react";
import { LANGUAGES, isLanguage, type Language } from "../../shared/constants.ts";
import { changeLanguage } from "../i18n/index.ts";

const LABELS: Record<Language, string> = { "zh-cn": "简体中文", en: "English" };

/** Language choice; choosing stores it and reloads (SPEC §1). `showLabel` shows the word "Language". */
export function LanguageSwitch({ showLabel = false }: { showLabel?: boolean }) {
  const { t, i18n } = useLingui();
  return (
    <label className="flex min-h-11 items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
      <Languages aria-hidden className="size-4" />
      <span className={showLabel ? "flex-1" : "sr-only"}>{t`Language`}</span>
      <select
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5 focus-visible:outline-2 focus-visible:outline-primary dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
        value={i18n.locale}
        onChange={(e) => {
          if (isLanguage(e.target.value)) changeLanguage(e.target.value);
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
