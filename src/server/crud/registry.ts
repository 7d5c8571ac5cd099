import type { FastifyInstance } from "fastify";
import type { ResourceDef } from "./resource.ts";

declare module "fastify" {
  interface FastifyInstance {
    /**
     * The resources the code generator made (modules/codegen), by name: mounted at
     * `/admin/gen/<name>/...` through the engine's routes for generated resources, added and
     * removed while the server runs, loaded again from their stored designs at start.
     */
    generatedResources: Map<string, ResourceDef>;
    /**
     * The resources of the enabled modules (modules/market), by `<module>/<table>`: mounted at
     * `/admin/mod/<module>/<table>/...`, added and removed as modules are installed, enabled,
     * disabled and uninstalled, loaded again from the installs at start.
     */
    moduleResources: Map<string, ResourceDef>;
  }
}

/**
 * The resources the engine mounted (crudRoutes sets them), for the parts that act on other
 * resources' tables (data security) without importing the resource list (which lists them);
 * given the app, with the generated resources it runs now.
 */
let mounted: readonly ResourceDef[] = [];

export const mountedResources = (app?: FastifyInstance): readonly ResourceDef[] =>
  app?.generatedResources ? [...mounted, ...app.generatedResources.values(), ...(app.moduleResources?.values() ?? [])] : mounted;

export function setMountedResources(list: readonly ResourceDef[]): void {
  mounted = list;
}
