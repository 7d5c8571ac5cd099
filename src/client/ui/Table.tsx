import type { HTMLAttributes, ReactNode, TableHTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";

/**
 * The pieces of a table, drawn by ui/DataTable (screens list with DataTable, not with these): a
 * bordered region that scrolls sideways on narrow screens (and takes keyboard focus to do so),
 * with the app's header, row and cell styles.
 */
export function Table({
  caption,
  busy,
  children,
  className = "",
  ...props
}: { caption: ReactNode; busy?: boolean; children: ReactNode } & Omit<TableHTMLAttributes<HTMLTableElement>, "children">) {
  const table = (
    <table aria-busy={busy || undefined} className={`w-full text-sm ${busy ? "opacity-60" : ""} ${className}`} {...props}>
      <caption className="sr-only">{caption}</caption>
      {children}
    </table>
  );
  return (
    <div
      role="region"
      aria-label={typeof caption === "string" ? caption : undefined}
      tabIndex={0}
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white outline-none focus-visible:ring-2 focus-visible:ring-primary dark:border-slate-700 dark:bg-slate-900"
    >
      {table}
    </div>
  );
}

export function THead({ className = "", ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={`border-b border-slate-200 bg-slate-50 text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200 ${className}`} {...props} />;
}

export function TBody({ className = "", ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={`divide-y divide-slate-100 dark:divide-slate-800 ${className}`} {...props} />;
}

export function Tr({ className = "", ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={`hover:bg-slate-50 dark:hover:bg-slate-800/60 ${className}`} {...props} />;
}

/** A column header, or with scope="row" a row's header (set in the body's weight, as the row's first cell). */
export function Th({ className = "", scope = "col", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope={scope} className={`px-3 py-2 text-left whitespace-nowrap ${scope === "row" ? "font-normal" : "font-medium"} ${className}`} {...props} />;
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-3 py-2 align-middle ${className}`} {...props} />;
}

/**
 * The table without the framed, scrolling region of `Table`: for a table inside a box that
 * already scrolls it (a dialog's preview, a wide editor), or one only screen readers get (the
 * figures beside a chart: a hidden region must not take keyboard focus). The caption, when
 * given, is for screen readers. A grid of form controls (the code generator's fields) draws its
 * rows itself inside it; a list goes through DataTable.
 */
export function PlainTable({ caption, className = "", children, ...props }: Omit<HTMLAttributes<HTMLTableElement>, "children"> & { caption?: ReactNode; children: ReactNode }) {
  return (
    <table className={`w-full text-sm ${className}`} {...props}>
      {caption !== undefined && <caption className="sr-only">{caption}</caption>}
      {children}
    </table>
  );
}
