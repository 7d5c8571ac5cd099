import { useLingui } from "@lingui/react/macro";

/**
 * Which of the site's verification channels to use (email or mobile), as radios; nothing when
 * the site offers only one. Registering and retrieving a password both ask it.
 */
export function ChannelChoice<T extends "email" | "mobile">({
  label,
  name,
  types,
  value,
  onChange,
}: {
  label: string;
  name: string;
  types: T[];
  value: T;
  onChange: (type: T) => void;
}) {
  const { t } = useLingui();
  if (types.length <= 1) return null;
  return (
    <div role="radiogroup" aria-label={label} className="flex gap-4 text-sm">
      {types.map((type) => (
        <label key={type} className="flex min-h-11 items-center gap-2">
          <input type="radio" name={name} className="accent-primary" checked={value === type} onChange={() => onChange(type)} />
          {type === "email" ? t`Email` : t`Mobile`}
        </label>
      ))}
    </div>
  );
}
