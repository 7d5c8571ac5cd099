import { Spinner } from "./Spinner.tsx";

/** The spinner that stands in for a screen, a dialog's body or a panel while its data loads: large and centred. */
export function PageSpinner({ className = "my-8" }: { className?: string }) {
  return <Spinner className={`mx-auto size-8 ${className}`} />;
}
