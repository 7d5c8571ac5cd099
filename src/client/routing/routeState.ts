import { useEffect } from "react";
import { useSearchParams } from "react-router-dom";
import { create } from "zustand";
import type { RouteTitle } from "./titles.ts";

/** Titles of routes resolved at run time (menu routes from the server). */
export const useDynamicTitle = create<{ title: RouteTitle | undefined; set(title: RouteTitle | undefined): void }>()(
  (set) => ({ title: undefined, set: (title) => set({ title }) }),
);

/** A title a screen takes from its data (an exam's room), over its route's title while the screen is shown. */
export const useScreenTitle = create<{ title: string | undefined; set(title: string | undefined): void }>()((set) => ({ title: undefined, set: (title) => set({ title }) }));

/** Gives the document the title `title` (then " - siteName") while the calling screen is shown; nothing while it is empty. */
export function useDocumentTitle(title: string | null | undefined): void {
  const set = useScreenTitle((s) => s.set);
  useEffect(() => {
    if (!title) return;
    set(title);
    return () => set(undefined);
  }, [title, set]);
}

/** A row's id from the address's query (`?id=12`): `valid` only when it is a whole number above zero. */
export function useIdParam(name = "id"): { id: number; valid: boolean } {
  const [params] = useSearchParams();
  const id = Number(params.get(name));
  return { id, valid: Number.isSafeInteger(id) && id > 0 };
}

/** `/admin/loading/{json}`: the original path and query, carried as JSON (SPEC §2). */
export interface LoadingTarget {
  path: string;
  query: Record<string, string>;
}

export function loadingPath(base: "/admin" | "/user", target?: LoadingTarget): string {
  if (!target) return `${base}/loading`;
  return `${base}/loading/${encodeURIComponent(JSON.stringify(target))}`;
}

export function parseLoadingTarget(param: string | undefined): LoadingTarget | undefined {
  if (!param) return undefined;
  try {
    const value = JSON.parse(param) as Partial<LoadingTarget>;
    if (typeof value.path !== "string" || !value.path.startsWith("/") || value.path.startsWith("//")) return undefined;
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(value.query ?? {})) if (typeof v === "string") query[k] = v;
    return { path: value.path, query };
  } catch {
    return undefined;
  }
}

export function targetUrl(target: LoadingTarget): string {
  const search = new URLSearchParams(target.query).toString();
  return search ? `${target.path}?${search}` : target.path;
}

export function targetFromLocation(pathname: string, search: string): LoadingTarget {
  return { path: pathname, query: Object.fromEntries(new URLSearchParams(search)) };
}
