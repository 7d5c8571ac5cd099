import { lazy, Suspense, useState, type ComponentType } from "react";
import { withCommonCatalog } from "../i18n/index.ts";

/**
 * A dialog whose code loads when it is first opened (a captcha, "forgot password"), so it is not
 * part of the first screen's download. Closed dialogs render nothing anyway; once opened it stays
 * mounted, so closing animates and reopening is instant. Its code and the common catalog
 * (src/client/i18n) load together: a dialog never shows a message before its text is there.
 */
export function lazyDialog<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazy(withCommonCatalog(async () => ({ default: await load() })));
  const AnyLoaded = Loaded as unknown as ComponentType<P>;
  function LazyDialog(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <AnyLoaded {...props} />
      </Suspense>
    );
  }
  return LazyDialog;
}
