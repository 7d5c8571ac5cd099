import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useLocation } from "react-router-dom";
import type { GenDesign } from "../../../shared/admin/codegen.ts";
import { request } from "../../api/index.ts";
import { LoadFailed } from "../../ui/LoadFailed.tsx";
import { CrudScreen } from "../crud/CrudScreen.tsx";
import { definitionOf } from "./definition.ts";
import { PageSpinner } from "../../ui/PageSpinner.tsx";

/** The query key of a generated screen's design (the generator invalidates them after a change). */
export const generatedKey = (name: string) => ["admin", "gen", name] as const;

/**
 * Every generated screen (menu rules `gen/<name>`, component `crud/generated`): its design is
 * read from the server and rendered by the engine's list and form screen like a built-in one.
 */
export default function GeneratedScreen() {
  const { pathname } = useLocation();
  const { i18n } = useLingui();
  const name = /^\/admin\/gen\/([a-z][a-z0-9_]{0,40})\/?$/.exec(pathname)?.[1] ?? "";
  const query = useQuery({
    queryKey: generatedKey(name),
    enabled: name !== "",
    queryFn: async ({ signal }) => (await request<{ design: GenDesign }>({ url: `/admin/gen/${name}/definition`, method: "get", signal })).data.design,
  });
  const definition = useMemo(() => (query.data ? definitionOf(query.data, i18n.locale) : null), [query.data, i18n.locale]);
  if (query.isError || name === "") {
    return <LoadFailed message={<Trans>This generated screen could not be loaded.</Trans>} onRetry={() => void query.refetch()} backTo="/admin" backLabel={<Trans>Back to the dashboard</Trans>} />;
  }
  if (!definition) return <PageSpinner className="my-16" />;
  return <CrudScreen key={name} definition={definition} />;
}
