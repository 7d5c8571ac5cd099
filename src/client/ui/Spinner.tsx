import { LoaderCircle } from "lucide-react";

export function Spinner({ className = "size-6" }: { className?: string }) {
  return <LoaderCircle aria-hidden className={`animate-spin text-primary ${className}`} />;
}
