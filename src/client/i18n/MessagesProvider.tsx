import { useEffect, useState, type ReactNode } from "react";
import type { I18n } from "@lingui/core";
import { LinguiContext } from "@lingui/react";

const contextFor = (i18n: I18n) => ({ i18n, _: i18n.t.bind(i18n) });

/**
 * Lingui's context, renewed when the language changes, not when a catalog is merged into it.
 * Lingui's own I18nProvider renews it on every `change` event, and `i18n.load` sends one: each
 * area catalog arriving (common, member, admin: i18n/index.ts) re-rendered every component that
 * shows a message, in one task React cannot split (an update outside a transition), while the
 * screens that need that catalog have not rendered yet: a route or a lazy part renders once its
 * catalog is there (tests/shared/catalog-areas.test.ts keeps it so). One `i18n` for the
 * provider's life (the app's).
 */
export function MessagesProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  const [context, setContext] = useState(() => contextFor(i18n));
  useEffect(() => {
    let locale = i18n.locale;
    return i18n.on("change", () => {
      if (i18n.locale === locale) return;
      locale = i18n.locale;
      setContext(contextFor(i18n));
    });
  }, [i18n]);
  return <LinguiContext.Provider value={context}>{children}</LinguiContext.Provider>;
}
