import type { ReactNode } from "react";

/** A page's section under its heading (an `h2`, which names the section): `id` is the heading's. */
export function TitledSection({ id, title, className = "space-y-3", children }: { id: string; title: ReactNode; className?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
