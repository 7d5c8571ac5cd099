import { UserRound } from "lucide-react";

const SIZES = {
  md: { circle: "size-16", icon: "size-8" },
  lg: { circle: "size-24", icon: "size-10" },
} as const;

/** A person's avatar in a circle (`src`, already a full address), or a person outline where there is none. */
export function AvatarCircle({ src, alt, size }: { src: string; alt: string; size: keyof typeof SIZES }) {
  const { circle, icon } = SIZES[size];
  return src ? (
    <img src={src} alt={alt} className={`${circle} shrink-0 rounded-full border border-slate-200 object-cover dark:border-slate-700`} />
  ) : (
    <span className={`flex ${circle} shrink-0 items-center justify-center rounded-full bg-slate-100 dark:bg-slate-800`}>
      <UserRound aria-hidden className={`${icon} text-slate-500 dark:text-slate-400`} />
    </span>
  );
}
