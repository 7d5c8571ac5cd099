import type { CrudRow } from "../types.ts";

/**
 * The checked state of a checkbox tree, kept as the set of chosen ids: a parent chosen with
 * all of its children shows checked, with some of them half-checked (and stays in the set, so
 * a menu whose button alone is granted still shows). Pure functions, unit-tested.
 */
export interface CheckIndex {
  children: Map<number, number[]>;
  parent: Map<number, number>;
  ids: number[];
}

export function checkIndex(rows: readonly CrudRow[]): CheckIndex {
  const known = new Set(rows.map((r) => r.id));
  const children = new Map<number, number[]>();
  const parent = new Map<number, number>();
  for (const row of rows) {
    const pid = Number(row.pid ?? 0);
    if (pid && known.has(pid) && pid !== row.id) {
      parent.set(row.id, pid);
      children.set(pid, [...(children.get(pid) ?? []), row.id]);
    }
  }
  return { children, parent, ids: rows.map((r) => r.id) };
}

function descendants(index: CheckIndex, id: number, out: number[] = []): number[] {
  for (const child of index.children.get(id) ?? []) {
    if (out.includes(child)) continue;
    out.push(child);
    descendants(index, child, out);
  }
  return out;
}

function ancestors(index: CheckIndex, id: number): number[] {
  const out: number[] = [];
  for (let at = index.parent.get(id); at !== undefined && !out.includes(at); at = index.parent.get(at)) out.push(at);
  return out;
}

export type CheckState = "checked" | "partial" | "unchecked";

/** A leaf: in the set or not. A parent: all under it chosen, some, or none (then itself alone). */
export function stateOf(index: CheckIndex, chosen: ReadonlySet<number>, id: number): CheckState {
  const under = descendants(index, id);
  if (under.length === 0) return chosen.has(id) ? "checked" : "unchecked";
  const count = under.filter((d) => chosen.has(d)).length;
  if (count === under.length) return chosen.has(id) ? "checked" : "partial";
  return count > 0 || chosen.has(id) ? "partial" : "unchecked";
}

/**
 * Toggles a node: checking chooses it, everything under it and its ancestors (half-checked);
 * unchecking drops it and everything under it, and ancestors left with nothing chosen under them.
 */
export function toggle(index: CheckIndex, chosen: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(chosen);
  const subtree = [id, ...descendants(index, id)];
  if (stateOf(index, chosen, id) === "checked") {
    for (const d of subtree) next.delete(d);
    for (const a of ancestors(index, id)) if (!descendants(index, a).some((d) => next.has(d))) next.delete(a);
  } else {
    for (const d of subtree) next.add(d);
    for (const a of ancestors(index, id)) next.add(a);
  }
  return next;
}
