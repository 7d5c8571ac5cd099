import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
  content: ReactNode;
}

/**
 * Tabs as the WAI-ARIA tabs pattern (automatic activation): a `tablist` of `tab` buttons, the
 * selected one the only one in the Tab order, the arrow keys, Home and End move the selection;
 * the selected tab's `tabpanel` is the only one rendered. Each tab carries `data-state`
 * (`active` / `inactive`) as Radix's tabs do, for styling.
 *
 * For the member login (the first screen of every visit): Radix Tabs with its roving focus,
 * collection and presence modules is 11.7 KiB of gzipped JavaScript there, 8 % of everything
 * that screen loaded (docs/performance.md, "First load"). The back office keeps Radix Tabs.
 */
export function Tabs<T extends string>({
  value,
  onValueChange,
  label,
  items,
  listClassName,
  tabClassName,
}: {
  value: T;
  onValueChange: (value: T) => void;
  label: string;
  items: TabItem<T>[];
  listClassName?: string;
  tabClassName?: string;
}) {
  const id = useId();
  const tabs = useRef(new Map<T, HTMLButtonElement>());
  const tabId = (v: T) => `${id}-tab-${v}`;
  const panelId = (v: T) => `${id}-panel-${v}`;

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const at = items.findIndex((item) => item.value === value);
    const last = items.length - 1;
    const to = { ArrowRight: at === last ? 0 : at + 1, ArrowLeft: at === 0 ? last : at - 1, Home: 0, End: last }[event.key];
    if (to === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const next = items[to]!.value;
    onValueChange(next);
    tabs.current.get(next)?.focus();
  }

  const selected = items.find((item) => item.value === value);
  return (
    <div>
      <div role="tablist" aria-label={label} aria-orientation="horizontal" className={listClassName} onKeyDown={onKeyDown}>
        {items.map((item) => {
          const active = item.value === value;
          return (
            <button
              key={item.value}
              ref={(node) => {
                if (node) tabs.current.set(item.value, node);
                else tabs.current.delete(item.value);
              }}
              type="button"
              role="tab"
              id={tabId(item.value)}
              aria-selected={active}
              aria-controls={panelId(item.value)}
              tabIndex={active ? 0 : -1}
              data-state={active ? "active" : "inactive"}
              className={tabClassName}
              onClick={() => {
                if (!active) onValueChange(item.value);
              }}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {selected && (
        <div role="tabpanel" id={panelId(selected.value)} aria-labelledby={tabId(selected.value)} tabIndex={0} data-state="active">
          {selected.content}
        </div>
      )}
    </div>
  );
}
