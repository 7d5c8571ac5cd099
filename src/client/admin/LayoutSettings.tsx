import { useId, useState } from "react";
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { useLingui } from "@lingui/react/macro";
import { Dialog } from "radix-ui";
import { RotateCcw, X } from "lucide-react";
import {
  LAYOUT_COLOURS,
  LAYOUT_MODES,
  MENU_WIDTH_MAX,
  MENU_WIDTH_MIN,
  ON_PRIMARY,
  useConfig,
  type ContrastProblem,
  type LayoutColour,
  type LayoutMode,
  type Theme,
} from "../stores/config.ts";
import { Button, buttonClass } from "../ui/Button.tsx";
import { ModalPanel } from "../ui/DialogFrame.tsx";
import { Switch } from "../ui/Switch.tsx";

const MODE_LABELS: Record<LayoutMode, MessageDescriptor> = {
  Default: msg`Floating cards`,
  Classic: msg`Classic`,
  Rail: msg`Icon rail`,
};

const COLOUR_LABELS: Record<LayoutColour | typeof ON_PRIMARY, MessageDescriptor> = {
  primaryColor: msg`Primary colour`,
  menuBackground: msg`Menu background`,
  menuColor: msg`Menu text`,
  menuActiveBackground: msg`Open page in the menu: background`,
  menuActiveColor: msg`Open page in the menu: text`,
  headerBackground: msg`Header background`,
  headerColor: msg`Header text`,
  [ON_PRIMARY]: msg`White text`,
};

type Drafts = Record<Theme, Partial<Record<LayoutColour, string>>>;

/**
 * One theme's colours. A change that would put text on a background below 4.5:1 (WCAG AA) is
 * not applied: the input keeps the colour tried and says why, until the pair is readable again
 * (its other colour changed too, or this one changed back).
 */
function ThemeColours({ theme, drafts, problems, onChange }: { theme: Theme; drafts: Drafts; problems: ContrastProblem[]; onChange: (theme: Theme, key: LayoutColour, value: string) => void }) {
  const { t, i18n } = useLingui();
  const layout = useConfig((s) => s.layout);
  const id = useId();
  const problemId = `${id}-problems`;
  const failing = new Set(problems.flatMap((p) => [p.text, p.background]));
  return (
    <fieldset className="min-w-0 rounded-lg border border-slate-200 p-3 dark:border-slate-700" aria-describedby={problems.length > 0 ? problemId : undefined}>
      <legend className="px-1 text-sm font-medium">{theme === "light" ? t`Light theme` : t`Dark theme`}</legend>
      <div className="space-y-2">
        {LAYOUT_COLOURS.map((key) => {
          const value = drafts[theme][key] ?? layout[key][theme];
          const inputId = `${id}-${key}`;
          return (
            <div key={key} className="flex items-center justify-between gap-3">
              <label htmlFor={inputId} className="text-sm">
                {i18n._(COLOUR_LABELS[key])}
              </label>
              <span className="flex items-center gap-2">
                <code className="text-xs text-slate-600 tabular-nums dark:text-slate-300">{value}</code>
                <input
                  id={inputId}
                  type="color"
                  value={value}
                  aria-invalid={failing.has(key) || undefined}
                  aria-describedby={failing.has(key) ? problemId : undefined}
                  onChange={(e) => onChange(theme, key, e.target.value)}
                  className={`h-9 w-12 cursor-pointer rounded border bg-transparent p-0.5 outline-none focus-visible:ring-2 focus-visible:ring-primary ${failing.has(key) ? "border-red-600" : "border-slate-300 dark:border-slate-600"}`}
                />
              </span>
            </div>
          );
        })}
      </div>
      {problems.length > 0 && (
        <ul id={problemId} role="alert" className="mt-3 space-y-1 text-sm text-red-700 dark:text-red-400">
          {problems.map((p) => {
            const text = i18n._(COLOUR_LABELS[p.text]);
            const background = i18n._(COLOUR_LABELS[p.background]);
            const ratio = p.ratio.toFixed(2);
            return <li key={`${p.text}-${p.background}`}>{t`${text} on ${background}: contrast ${ratio}:1, below the 4.5:1 text needs to be read. Not applied.`}</li>;
          })}
        </ul>
      )}
    </fieldset>
  );
}

/**
 * The back office's layout settings (a drawer from the header): the layout mode, the menu's
 * width, the tab bar, and the colours of the menu, the header and the primary colour for each
 * theme. Changes apply at once and are kept for this admin on this browser (stores/config.ts).
 */
export function LayoutSettings({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t, i18n } = useLingui();
  const layout = useConfig((s) => s.layout);
  const setLayout = useConfig((s) => s.setLayout);
  const setColours = useConfig((s) => s.setColours);
  const resetLayout = useConfig((s) => s.resetLayout);
  const [drafts, setDrafts] = useState<Drafts>({ light: {}, dark: {} });
  const [problems, setProblems] = useState<Record<Theme, ContrastProblem[]>>({ light: [], dark: [] });
  const widthId = useId();

  const changeColour = (theme: Theme, key: LayoutColour, value: string) => {
    const tried = { ...drafts[theme], [key]: value };
    const result = setColours(theme, tried);
    setDrafts((d) => ({ ...d, [theme]: result.ok ? {} : tried }));
    setProblems((p) => ({ ...p, [theme]: result.ok ? [] : result.problems }));
  };
  const reset = () => {
    resetLayout();
    setDrafts({ light: {}, dark: {} });
    setProblems({ light: [], dark: [] });
  };

  return (
    <ModalPanel
      open={open}
      onOpenChange={onOpenChange}
      className="fixed inset-y-0 right-0 z-50 flex w-[min(24rem,100vw)] flex-col bg-white shadow-xl outline-none dark:bg-slate-900 dark:text-slate-100"
    >
      <div className="flex items-center justify-between border-b border-slate-200 py-2 ps-4 pe-2 dark:border-slate-700">
        <Dialog.Title className="text-lg font-semibold">{t`Layout settings`}</Dialog.Title>
        <Dialog.Close className={buttonClass("ghost", "", "icon")} aria-label={t`Close the layout settings`}>
          <X aria-hidden className="size-5" />
        </Dialog.Close>
      </div>
      <div className="flex-1 space-y-5 overflow-y-auto p-4">
        <fieldset className="space-y-1">
          <legend className="mb-1 text-sm font-medium">{t`Layout mode`}</legend>
          <div className="grid grid-cols-3 gap-2">
            {LAYOUT_MODES.map((mode) => (
              <label
                key={mode}
                className={`flex min-h-11 cursor-pointer items-center justify-center gap-2 rounded-md border px-2 text-center text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary ${
                  layout.layoutMode === mode ? "border-primary bg-primary/10 font-medium" : "border-slate-300 dark:border-slate-600"
                }`}
              >
                <input type="radio" name="layout-mode" value={mode} checked={layout.layoutMode === mode} onChange={() => setLayout("layoutMode", mode)} className="sr-only" />
                {i18n._(MODE_LABELS[mode])}
              </label>
            ))}
          </div>
        </fieldset>

        <div className="space-y-1">
          <label htmlFor={widthId} className="flex justify-between text-sm font-medium">
            {t`Menu width`}
            <output htmlFor={widthId} className="font-normal tabular-nums">
              {layout.menuWidth} px
            </output>
          </label>
          <input
            id={widthId}
            type="range"
            min={MENU_WIDTH_MIN}
            max={MENU_WIDTH_MAX}
            step={10}
            value={layout.menuWidth}
            disabled={layout.layoutMode === "Rail"}
            onChange={(e) => setLayout("menuWidth", Number(e.target.value))}
            className="w-full accent-primary disabled:opacity-50"
          />
        </div>

        <div className="flex items-center justify-between gap-3">
          <label htmlFor={`${widthId}-tabs`} className="text-sm font-medium">
            {t`Show the tab bar`}
          </label>
          <Switch control={{ id: `${widthId}-tabs` }} checked={layout.showTabs} onToggle={() => setLayout("showTabs", !layout.showTabs)} />
        </div>

        <ThemeColours theme="light" drafts={drafts} problems={problems.light} onChange={changeColour} />
        <ThemeColours theme="dark" drafts={drafts} problems={problems.dark} onChange={changeColour} />
      </div>
      <div className="border-t border-slate-200 p-4 dark:border-slate-700">
        <Button onClick={reset} className="w-full">
          <RotateCcw aria-hidden className="size-4" />
          {t`Reset to defaults`}
        </Button>
      </div>
    </ModalPanel>
  );
}
