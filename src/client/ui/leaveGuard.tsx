import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { useBlocker } from "react-router-dom";
import { withCommonCatalog } from "../i18n/index.ts";

/**
 * The page's side of asking before typed work is thrown away (forms report with
 * ui/discardGuard.tsx's useDirtyForm). Mounted by the root layout, so it holds no message of its
 * own: the question loads with the common catalog the first time it is asked.
 */

const DiscardConfirm = lazy(withCommonCatalog(async () => ({ default: (await import("./discardGuard.tsx")).DiscardConfirm })));

/** Every form on the page that holds unsaved changes (dialogs' forms too). */
const dirtyForms = new Set<object>();
const listeners = new Set<() => void>();

export function markPage(key: object, dirty: boolean): void {
  if (dirty === dirtyForms.has(key)) return;
  if (dirty) dirtyForms.add(key);
  else dirtyForms.delete(key);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether leaving the page now would lose typed work. */
export const pageHasUnsavedChanges = (): boolean => dirtyForms.size > 0;

/** The mounted LeaveGuard's question, for `confirmLeave`. */
let askHost: ((answer: (leave: boolean) => void) => void) | null = null;
/** Set while the step `confirmLeave` was answered "discard" for runs, so its navigation is not asked about twice. */
let passing = false;

/**
 * Before a step that leaves the page by more than a route change (closing the open page's tab):
 * runs `leave` at once when nothing is unsaved, else once the person answers "discard"; the
 * navigation `leave` starts then goes through without a second question.
 */
export function confirmLeave(leave: () => void): void {
  const host = askHost;
  if (!pageHasUnsavedChanges() || !host) {
    leave();
    return;
  }
  host((discard) => {
    if (!discard) return;
    passing = true;
    try {
      leave();
    } finally {
      passing = false;
    }
  });
}

/**
 * Mounted once under the data router: a route change to another page, or closing/reloading the
 * browser tab, while a form holds unsaved changes asks first. A change of the query string only
 * (a list's search) stays on the page and is not asked about.
 */
export function LeaveGuard() {
  const dirty = useSyncExternalStore(subscribe, pageHasUnsavedChanges, () => false);
  useEffect(() => {
    if (!dirty) return;
    // The browser asks in its own words; preventDefault (returnValue for older browsers) is how the page says there is something to lose.
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => !passing && pageHasUnsavedChanges() && currentLocation.pathname !== nextLocation.pathname);
  const [answer, setAnswer] = useState<((leave: boolean) => void) | null>(null);
  useEffect(() => {
    askHost = (reply) => setAnswer(() => reply);
    return () => {
      askHost = null;
    };
  }, []);

  const reply = (leave: boolean) => {
    if (answer) {
      setAnswer(null);
      answer(leave);
    } else if (blocker.state === "blocked") {
      if (leave) blocker.proceed();
      else blocker.reset();
    }
  };
  const open = answer !== null || blocker.state === "blocked";
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <DiscardConfirm open onKeep={() => reply(false)} onDiscard={() => reply(true)} />
    </Suspense>
  );
}
