import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useLocation } from "react-router-dom";
import type { GenDesign } from "../../../shared/admin/codegen.ts";
import { moduleRuleOf } from "../../../shared/admin/modules.ts";
import { request } from "../../api/index.ts";
import { LoadFailed } from "../../ui/LoadFailed.tsx";
import { definitionOf } from "../codegen/definition.ts";
import { CrudScreen } from "../crud/CrudScreen.tsx";
import { PageSpinner } from "../../ui/PageSpinner.tsx";

/**
 * Every module screen (menu rules `mod/<module>/<table>`, component `mod/screen`): the table's
 * definition is read from the server and rendered like a generated screen, by the engine's list
 * and form screen. A disabled or uninstalled module's screen says so.
 */
export default function ModuleScreen() {
  const { pathname } = useLocation();
  const { i18n } = useLingui();
  const match = /^\/admin\/mod\/([a-z][a-z0-9]{1,19})\/([a-z][a-z0-9_]{0,29})\/?$/.exec(pathname);
  const module = match?.[1] ?? "";
  const table = match?.[2] ?? "";
  const query = useQuery({
    queryKey: ["admin", "mod", module, table],
    enabled: module !== "",
    queryFn: async ({ signal }) => (await request<{ design: GenDesign }>({ url: `/admin/mod/${module}/${table}/definition`, method: "get", signal })).data.design,
  });
  const definition = useMemo(() => (query.data ? { ...definitionOf(query.data, i18n.locale), path: moduleRuleOf(module, table) } : null), [query.data, i18n.locale, module, table]);
  if (query.isError || module === "") {
    return <LoadFailed message={<Trans>This module screen could not be loaded: the module may be disabled.</Trans>} onRetry={() => void query.refetch()} backTo="/admin" backLabel={<Trans>Back to the dashboard</Trans>} />;
  }
  if (!definition) return <PageSpinner className="my-16" />;
  return <CrudScreen key={`${module}/${table}`} definition={definition} />;
}
