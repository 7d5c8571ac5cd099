import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { CrudDefinition } from "./types.ts";

/**
 * A screen registry entry (admin/screens.ts) for a definition: one lazy chunk loads the
 * definition module and the engine, and renders the list screen from it, e.g.
 * `"auth/admin": definitionScreen(() => import("./auth/admins.ts"))`.
 */
export function definitionScreen(load: () => Promise<{ default: CrudDefinition }>): LazyExoticComponent<ComponentType> {
  return lazy(async () => {
    const [{ default: definition }, { CrudScreen }] = await Promise.all([load(), import("./CrudScreen.tsx")]);
    function DefinedScreen() {
      return <CrudScreen definition={definition} />;
    }
    return { default: DefinedScreen };
  });
}
