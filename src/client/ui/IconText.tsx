import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

const TONES = {
  muted: "text-slate-600 dark:text-slate-300",
  good: "text-emerald-700 dark:text-emerald-300",
  bad: "text-red-700 dark:text-red-300",
  warn: "text-amber-800 dark:text-amber-200",
} as const;

/** A short line of small text after its icon (a status, a duration), in a tone: `muted`, `good`, `bad` or `warn`. */
export function IconText({ icon: Icon, tone = "muted", as: Tag = "span", children }: { icon: LucideIcon; tone?: keyof typeof TONES; as?: "span" | "p"; children: ReactNode }) {
  return (
    <Tag className={`inline-flex items-center gap-1 text-sm ${TONES[tone]}`}>
      <Icon aria-hidden className="size-4" />
      {children}
    </Tag>
  );
}
