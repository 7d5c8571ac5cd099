import type { CrudRow } from "./types.ts";

/** A row with its sub-rows, as a tree screen shows it. */
export type TreeRow = CrudRow & { children?: TreeRow[] };

const pidOf = (row: CrudRow): number => {
  const pid = Number(row.pid ?? 0);
  return Number.isFinite(pid) ? pid : 0;
};

/**
 * Flat rows with `pid` (as the server lists them) -> roots with their sub-rows in `children`,
 * keeping the order the rows came in. A row whose parent is not among the rows (another page,
 * filtered out) is a root; so is a row of a cycle, which the server refuses to store anyway.
 * Rows that already carry `children` are taken as they are.
 */
export function nestRows(rows: readonly CrudRow[]): TreeRow[] {
  if (rows.some((r) => Array.isArray(r.children))) return rows as TreeRow[];
  const nodes = new Map<number, TreeRow>();
  for (const row of rows) nodes.set(row.id, { ...row });
  const roots: TreeRow[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = nodes.get(pidOf(row));
    if (parent && parent !== node && !isAncestor(node, parent, nodes)) (parent.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** True when `node` is `candidate` or one of its ancestors by pid (a cycle would form). */
function isAncestor(node: TreeRow, candidate: TreeRow, nodes: Map<number, TreeRow>): boolean {
  const seen = new Set<number>();
  for (let at: TreeRow | undefined = candidate; at && !seen.has(at.id); at = nodes.get(pidOf(at))) {
    if (at === node) return true;
    seen.add(at.id);
  }
  return false;
}

/** The ids of a row and every row under it (by pid), among `rows`. */
export function subtreeIds(rows: readonly CrudRow[], id: number): Set<number> {
  const out = new Set<number>([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const row of rows) {
      if (!out.has(row.id) && out.has(pidOf(row))) {
        out.add(row.id);
        grew = true;
      }
    }
  }
  return out;
}

/** Depth-first order with each row's depth: the nested rows as an indented flat list. */
export function flattenTree<T extends { children?: T[] }>(roots: readonly T[], depth = 0, out: { row: T; depth: number }[] = []): { row: T; depth: number }[] {
  for (const row of roots) {
    out.push({ row, depth });
    if (row.children?.length) flattenTree(row.children, depth + 1, out);
  }
  return out;
}
