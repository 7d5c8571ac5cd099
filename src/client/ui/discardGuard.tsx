import { Trans } from "@lingui/react/macro";
import { createContext, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { ConfirmDialog } from "./ConfirmDialog.tsx";
import { markPage } from "./leaveGuard.tsx";

/**
 * Asking before typed work is thrown away. A form says whether it holds unsaved changes with
 * `useDirtyForm(form.formState.isDirty)`; then
 * - inside a DialogFrame, closing the dialog (Escape, ×, a click outside, or a Cancel wired with
 *   `useGuardedClose`) asks "discard changes?" first, with "keep editing" as the focused answer;
 *   a dialog with no changes closes at once, and saving (which closes by its own call) never asks;
 * - anywhere, leaving the page while it holds such a form asks too: a route change inside the
 *   app (LeaveGuard, mounted once under the router) and closing or reloading the browser tab
 *   (the browser's own beforeunload question): ui/leaveGuard.tsx.
 */

/** One dialog's forms with unsaved changes, and its close that asks first. */
interface DiscardScope {
  mark: (key: object, dirty: boolean) => void;
  requestClose: () => void;
}

const ScopeContext = createContext<DiscardScope | null>(null);

/**
 * Tells the page (and the dialog around it, if any) whether this form holds unsaved changes.
 * Returns `saved()`, for a form that leaves the page as soon as it has saved: it counts as clean
 * at once, before its next render, so that navigation is not asked about.
 */
export function useDirtyForm(dirty: boolean): () => void {
  const scope = useContext(ScopeContext);
  const [key] = useState(() => ({}));
  useEffect(() => {
    markPage(key, dirty);
    scope?.mark(key, dirty);
    return () => {
      markPage(key, false);
      scope?.mark(key, false);
    };
  }, [key, dirty, scope]);
  return () => {
    markPage(key, false);
    scope?.mark(key, false);
  };
}

/**
 * A form's own way out (its Cancel button): inside a DialogFrame, the dialog's close that asks
 * first when something is unsaved; elsewhere `close` itself.
 */
export function useGuardedClose(close: () => void): () => void {
  const scope = useContext(ScopeContext);
  return scope ? scope.requestClose : close;
}

/** The question itself: "keep editing" is the cancel button, which the alert dialog focuses. */
export function DiscardConfirm({ open, onKeep, onDiscard }: { open: boolean; onKeep: () => void; onDiscard: () => void }) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => !o && onKeep()}
      title={<Trans>Discard changes?</Trans>}
      description={<Trans>What you typed has not been saved and will be lost.</Trans>}
      cancelLabel={<Trans>Keep editing</Trans>}
      confirmLabel={<Trans>Discard</Trans>}
      onConfirm={onDiscard}
    />
  );
}

/**
 * For a dialog: the scope its forms report to (give it with `DiscardScopeProvider`), and the
 * question to render beside it. `scope.requestClose()` runs `close` at once when no form in the
 * scope is dirty, and after "discard" otherwise.
 */
export function useDiscardScope(close: () => void): { scope: DiscardScope; confirm: ReactNode } {
  const dirtyKeys = useRef(new Set<object>());
  const closeRef = useRef(close);
  useLayoutEffect(() => {
    closeRef.current = close;
  });
  const [asking, setAsking] = useState(false);
  const scope = useMemo<DiscardScope>(
    () => ({
      mark: (key, dirty) => {
        if (dirty) dirtyKeys.current.add(key);
        else dirtyKeys.current.delete(key);
      },
      requestClose: () => {
        if (dirtyKeys.current.size > 0) setAsking(true);
        else closeRef.current();
      },
    }),
    [],
  );
  const confirm = (
    <DiscardConfirm
      open={asking}
      onKeep={() => setAsking(false)}
      onDiscard={() => {
        setAsking(false);
        closeRef.current();
      }}
    />
  );
  return { scope, confirm };
}

/**
 * Outside a dialog, a form's own way out that stays on the page (a "back to the list" button):
 * `ask(run)` runs at once while nothing is unsaved, else after "discard". Render `confirm` beside it.
 */
export function useConfirmDiscard(dirty: boolean): { ask: (run: () => void) => void; confirm: ReactNode } {
  const [pending, setPending] = useState<(() => void) | null>(null);
  const ask = (run: () => void) => {
    if (dirty) setPending(() => run);
    else run();
  };
  const confirm = (
    <DiscardConfirm
      open={pending !== null}
      onKeep={() => setPending(null)}
      onDiscard={() => {
        setPending(null);
        pending?.();
      }}
    />
  );
  return { ask, confirm };
}

export function DiscardScopeProvider({ scope, children }: { scope: DiscardScope; children: ReactNode }) {
  return <ScopeContext.Provider value={scope}>{children}</ScopeContext.Provider>;
}
