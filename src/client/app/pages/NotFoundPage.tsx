import { Trans } from "@lingui/react/macro";
import { Link } from "react-router-dom";

export function NotFoundPage() {
  return (
    <section className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-5xl font-bold text-slate-300">404</h1>
      <p className="mt-4 text-slate-700">
        <Trans>The page you are looking for does not exist.</Trans>
      </p>
      <Link to="/" className="mt-6 inline-flex min-h-11 items-center rounded-md bg-primary px-4 text-white hover:bg-primary-strong">
        <Trans>Back to home</Trans>
      </Link>
    </section>
  );
}
