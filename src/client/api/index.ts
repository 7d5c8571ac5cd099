import { i18n } from "@lingui/core";
import type { AxiosRequestConfig } from "axios";
import { onceUntilFailed } from "../../shared/once.ts";
import { withCommonCatalog } from "../i18n/index.ts";
import { toast } from "../ui/toast.ts";
import { downloadFailure } from "./errors.ts";
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
 * A failed request's message as a toast: one per message on screen (a retried request, or
 * several that fail together when the server is down, update the same toast instead of
 * stacking copies of it).
 */
export function notifyRequestError(text: string): void {
  toast.error(text, { id: `error:${text}` });
}

/**
 * The app's one HTTP client (api/client.ts), loaded with the first request: a first screen is
 * usable before the request layer (and axios after it) has downloaded. When that
 * download fails the request fails as a network failure, as when axios's own download fails
 * (api/http.ts), and the next request tries again.
 */
const loadClient = onceUntilFailed(async () => (await withCommonCatalog(() => import("./client.ts"))()).createAppClient((to) => navigateImpl(to)));

async function client(options?: Partial<RequestOptions>): Promise<HttpClient> {
  try {
    return await loadClient();
  } catch (error) {
    const failure = downloadFailure(error, navigator.onLine, (message) => i18n._(message));
    // showErrorMessage is on unless the call turns it off (SPEC §9; api/http.ts defaultRequestOptions).
    if (options?.showErrorMessage ?? true) notifyRequestError(failure.msg);
    throw failure;
  }
}

/** Every request of the app goes through here (SPEC §9's options: api/http.ts). */
export const request = (async (config: AxiosRequestConfig, options?: Partial<RequestOptions>) => {
  const loaded = await client(options);
  // One call for both overloads (the envelope, or the whole response when reductDataFormat is false).
  return (loaded.request as (config: AxiosRequestConfig, options?: Partial<RequestOptions>) => Promise<unknown>)(config, options);
}) as HttpClient["request"];

/**
 * Loads the request layer and axios now rather than with the first request: a signed-in
 * member's first screen asks the server for its data as soon as it renders, and loading these
 * after the screen's own chunks put them on that path (Lighthouse's phone: the first request
 * about 1.4 s after the page started). A failed download is left for the first request to meet.
 */
export function warmRequests(): void {
  void loadClient().then(
    (loaded) => loaded.warm(),
    () => undefined,
  );
}

/** The client's calls beyond `request`, each waiting for it to load. */
export const http = {
  request,
  /** The 409 path for a request made outside axios (the terminal's stream): api/http.ts. */
  refreshAfterExpiry: async (side: Side, sentToken: string): Promise<void> => (await client()).refreshAfterExpiry(side, sentToken),
};
