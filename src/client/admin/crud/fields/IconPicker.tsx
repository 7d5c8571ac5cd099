import { useLingui } from "@lingui/react/macro";
import { X } from "lucide-react";
import { createElement, useMemo, useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import type { FieldControlProps } from "../../../ui/form/Field.tsx";
import { SearchPopover } from "../../../ui/SearchPopover.tsx";
import { MENU_ICONS, menuIcon } from "../../menuIcons.tsx";

/** The icon names the picker offers: the menu's own icon set (menuIcons.tsx), filtered by a search text. */
export function iconChoices(search: string): string[] {
  const term = search.trim().toLowerCase();
  return Object.keys(MENU_ICONS)
    .filter((name) => !term || name.includes(term))
    .sort();
}

/**
 * A menu rule's icon: a button showing the current one opens a searchable grid of the icons the
 * side menu knows (so a chosen icon always shows). Stores the icon's kebab-case name.
 */
export function IconPicker({ control, value, onChange }: { control: FieldControlProps; value: unknown; onChange: (value: string) => void }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const names = useMemo(() => iconChoices(search), [search]);
  const current = typeof value === "string" ? value : "";
  const currentIcon = createElement(menuIcon({ icon: current, name: "", type: "menu" }), { "aria-hidden": true, className: "size-5 shrink-0" });
  return (
    <div className="flex gap-2">
      <SearchPopover
        control={control}
        open={open}
        onOpenChange={setOpen}
        trigger={
          <>
            {currentIcon}
            <span className={current ? "" : "text-slate-500 dark:text-slate-400"}>{current || t`Choose an icon`}</span>
          </>
        }
        contentClassName="w-[min(22rem,calc(100vw-1rem))]"
        search={search}
        onSearch={setSearch}
        searchLabel={t`Search icons`}
      >
        <div role="listbox" aria-label={t`Icons`} className="mt-2 grid max-h-64 grid-cols-5 gap-1 overflow-y-auto sm:grid-cols-6">
          {names.map((name) => {
            const Icon = MENU_ICONS[name]!;
            return (
              <Button
                key={name}
                variant="bare"
                role="option"
                aria-selected={name === current}
                aria-label={name}
                title={name}
                onClick={() => {
                  onChange(name);
                  setOpen(false);
                  setSearch("");
                }}
                className={`flex min-h-11 items-center justify-center rounded-md hover:bg-slate-100 dark:hover:bg-slate-700 ${name === current ? "bg-primary/10 text-primary ring-1 ring-primary" : ""}`}
              >
                <Icon aria-hidden className="size-5" />
              </Button>
            );
          })}
          {names.length === 0 && <p className="col-span-full px-2 py-3 text-sm text-slate-500 dark:text-slate-400">{t`No matches`}</p>}
        </div>
      </SearchPopover>
      {current && (
        <Button variant="secondary" size="icon" aria-label={t`Clear the icon`} onClick={() => onChange("")}>
          <X aria-hidden className="size-4" />
        </Button>
      )}
    </div>
  );
}
