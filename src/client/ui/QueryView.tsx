import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { LoadFailed } from "./LoadFailed.tsx";
import { PageSpinner } from "./PageSpinner.tsx";

/**
 * A screen's content as its query stands: the page spinner while it loads, what failed (`failed`)
 * with "Try again", or `children` drawn from the data.
 */
export function QueryView<T>({ query, failed, children }: { query: UseQueryResult<T>; failed: ReactNode; children: (data: T) => ReactNode }) {
  if (query.isPending) return <PageSpinner className="my-16" />;
  if (query.isError) return <LoadFailed message={failed} onRetry={() => void query.refetch()} />;
  return children(query.data);
}
