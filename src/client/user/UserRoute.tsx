import { DynamicRoute } from "../routing/DynamicRoute.tsx";
import { useMemberCenter } from "../stores/memberCenter.ts";
import { userScreens } from "./screens.ts";

/** Any other /user path: a member-center menu route. */
export default function UserRoute() {
  const loaded = useMemberCenter((s) => s.loaded);
  const routes = useMemberCenter((s) => s.routes);
  return <DynamicRoute area="user" loaded={loaded} routes={routes} registry={userScreens} />;
}
