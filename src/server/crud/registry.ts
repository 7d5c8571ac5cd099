import type { ResourceDef } from "./resource.ts";

/**
 * The resources the engine mounted (crudRoutes sets them), for the parts that act on other
 * resources' tables (data security) without importing the resource list (which lists them).
 */
let mounted: readonly ResourceDef[] = [];

export const mountedResources = (): readonly ResourceDef[] => mounted;

export function setMountedResources(list: readonly ResourceDef[]): void {
  mounted = list;
}
