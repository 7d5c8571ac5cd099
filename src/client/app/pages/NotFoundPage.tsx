import { useEffect, useState } from "react";
import { Trans } from "@lingui/react/macro";
import { Link, useNavigate } from "react-router-dom";
import { buttonClass } from "../../ui/Button.tsx";

export const BACK_AFTER_SECONDS = 5;

/** SPEC §2: a problem tip, then back to the previous page by itself. */
export default function NotFoundPage() {
  const navigate = useNavigate();
  const [seconds, setSeconds] = useState(BACK_AFTER_SECONDS);

  useEffect(() => {
    if (seconds > 0) {
      const timer = setTimeout(() => setSeconds((s) => s - 1), 1000);
      return () => clearTimeout(timer);
    }
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate("/", { replace: true });
  }, [seconds, navigate]);

  return (
    <section className="mx-auto max-w-md py-16 text-center">
      <p className="text-6xl font-bold text-slate-500 dark:text-slate-400">404</p>
      <h1 className="mt-4 text-xl font-semibold">
        <Trans>Problem tip: the page you are looking for does not exist.</Trans>
      </h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300" aria-live="polite">
        <Trans>Returning to the previous page in {seconds} s.</Trans>
      </p>
      <Link to="/" className={buttonClass("primary", "mt-6")}>
        <Trans>Back to home</Trans>
      </Link>
    </section>
  );
}
