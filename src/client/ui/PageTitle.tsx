import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** A screen's heading (its one `h1`), after its icon when it has one (`iconClassName`: the icon's size and colour). */
export function PageTitle({ icon: Icon, iconClassName = "size-6 text-primary", id, children }: { icon?: LucideIcon; iconClassName?: string; id?: string; children: ReactNode }) {
  if (!Icon)
    return (
      <h1 id={id} className="text-xl font-semibold">
        {children}
      </h1>
    );
  return (
    <h1 id={id} className="flex items-center gap-2 text-xl font-semibold">
      <Icon aria-hidden className={iconClassName} />
      {children}
    </h1>
  );
}

/** A screen's heading row: its title (`id`: the heading's, naming the screen's section) and, at the end, its actions, wrapping below it on a phone. */
export function PageHeader({ id, title, children }: { id?: string; title: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <PageTitle id={id}>{title}</PageTitle>
      {children}
    </div>
  );
}
