import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Outlet } from "react-router-dom";
import { isServerAnswer } from "../api/http.ts";
import { onLanguageChange } from "../i18n/index.ts";

/**
 * One retry for a failed connection while the device is online; a refusal from the server, or a
 * device that is offline, fails at once (the request layer toasts it once). Requests run offline
 * too (`networkMode: "always"`): the service worker may answer from its cache, and otherwise the
 * screen shows its error or offline state instead of waiting paused behind a spinner.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      networkMode: "always",
      retry: (failures, error) => failures < 1 && !isServerAnswer(error) && navigator.onLine,
      refetchOnWindowFocus: false,
    },
    mutations: { networkMode: "always" },
  },
});

// What the server wrote in the old language (names, messages) is asked for again in the new one;
// the screens keep showing what they have until it comes.
onLanguageChange(() => void queryClient.invalidateQueries());

/**
 * The query cache's provider, as a layout route (router.tsx) around every screen that reads the
 * server through TanStack Query: the member's screens and the back office. The first screens (the
 * two logins, 401, 404, the member shell) read nothing through it, so its code (about 8 KiB
 * gzipped) is not in their first load; it comes with the first screen that needs it. The client
 * is one for the page: leaving and coming back keeps the cache (logging out reloads the page).
 */
export function QueryLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
