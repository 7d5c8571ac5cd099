import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { CrudDefinition } from "./types.ts";
import { withPreload } from "../../routing/lazyScreen.ts";

type DefinitionLoader = () => Promise<{ default: CrudDefinition }>;

/** The definition module behind each registered screen (what other screens read a resource's labels from). */
const loaders = new WeakMap<object, DefinitionLoader>();

/**
 * A screen registry entry (admin/screens.ts) for a definition: one lazy chunk loads the
 * definition module and the engine, and renders the list screen from it, e.g.
 * `"auth/admin": definitionScreen(() => import("./auth/admins.ts"))`.
 */
export function definitionScreen(load: DefinitionLoader): LazyExoticComponent<ComponentType> {
  const both = () => Promise.all([load(), import("./CrudScreen.tsx")]);
  const screen = lazy(async () => {
    const [{ default: definition }, { CrudScreen }] = await both();
    function DefinedScreen() {
      return <CrudScreen definition={definition} />;
    }
    return { default: DefinedScreen };
  });
  loaders.set(screen, load);
  return withPreload(screen, both);
}

/** The definition of a screen made by `definitionScreen` (undefined for any other screen). */
export async function definitionOf(screen: object | undefined): Promise<CrudDefinition | undefined> {
  const load = screen ? loaders.get(screen) : undefined;
  return load ? (await load()).default : undefined;
}
