import { onceUntilFailed } from "../../shared/once.ts";
import type { AxiosRequestConfig } from "axios";
import type { HttpClient, RequestOptions, Side } from "./http.ts";

export type { RequestOptions } from "./http.ts";
export { ApiError, serverRefusal } from "./errors.ts";

type Navigate = (to: { path?: string; name?: string }) => void;
let navigateImpl: Navigate = ({ path }) => {
  if (path) window.location.assign(path);
};

/** The router registers itself here (api/ must not import the router: it imports screens). */
export function setNavigator(navigate: Navigate): void {
  navigateImpl = navigate;
}

/**
 * The app's one HTTP client (api/client.ts), loaded with the first request: a first screen is
 * usable before the request layer (and axios after it) has downloaded (issue 17). A download
 * that fails (offline before the service worker had it) is tried again with the next request.
 */
const client = onceUntilFailed(async () => (await import("./client.ts")).createAppClient((to) => navigateImpl(to)));

/** Every request of the app goes through here (SPEC §9's options: api/http.ts). */
export const request = (async (config: AxiosRequestConfig, options?: Partial<RequestOptions>) => {
  const loaded = await client();
  // One call for both overloads (the envelope, or the whole response when reductDataFormat is false).
  return (loaded.request as (config: AxiosRequestConfig, options?: Partial<RequestOptions>) => Promise<unknown>)(config, options);
}) as HttpClient["request"];

/** The client's calls beyond `request`, each waiting for it to load. */
export const http = {
  request,
  /** The 409 path for a request made outside axios (the terminal's stream): api/http.ts. */
  refreshAfterExpiry: async (side: Side, sentToken: string): Promise<void> => (await client()).refreshAfterExpiry(side, sentToken),
};
