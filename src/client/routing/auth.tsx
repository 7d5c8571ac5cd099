import type { ReactNode } from "react";
import { useLocation } from "react-router-dom";
import { isAdminPath } from "../api/http.ts";
import { useMemberCenter } from "../stores/memberCenter.ts";
import { useNavTabs } from "../stores/navTabs.ts";

/** A permission node (SPEC §6): a sub-node of the current page, or a named node with an optional sub-node. */
export type AuthNode = string | { name: string; subNodeName?: string };

/**
 * SPEC §6: a string node passes if the current path's node list contains the current path
 * plus that string (joined with "/", e.g. "/admin/auth/admin" + "add"); an object passes if
 * its name is known and, when a sub-node name is given, that sub-node is in its list.
 */
export function checkAuth(node: AuthNode, nodes: Map<string, string[]>, currentPath: string): boolean {
  if (typeof node === "string") {
    const list = nodes.get(currentPath);
    if (!list) return false;
    const sub = currentPath + (currentPath === "/" ? "" : "/") + node;
    return list.includes(sub);
  }
  if (!node.name || !nodes.has(node.name)) return false;
  return !node.subNodeName || (nodes.get(node.name) ?? []).includes(node.subNodeName);
}

/** The check against the admin store in the admin area, against the member store elsewhere. */
export function useAuth(node: AuthNode): boolean {
  const { pathname } = useLocation();
  const adminNodes = useNavTabs((s) => s.authNode);
  const memberNodes = useMemberCenter((s) => s.authNode);
  return checkAuth(node, isAdminPath(pathname) ? adminNodes : memberNodes, pathname);
}

/** Renders its children only when the permission check passes (removed from the page otherwise). */
export function Auth({ node, children }: { node: AuthNode; children: ReactNode }) {
  return useAuth(node) ? <>{children}</> : null;
}
