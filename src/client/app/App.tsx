import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router-dom";
import { isServerAnswer } from "../api/http.ts";
import { i18n } from "../i18n/index.ts";
import { router } from "./router.tsx";

/**
 * One retry for a failed connection while the device is online; a refusal from the server, or a
 * device that is offline, fails at once (the request layer toasts it once). Requests run offline
 * too (`networkMode: "always"`): the service worker may answer from its cache, and otherwise the
 * screen shows its error or offline state instead of waiting paused behind a spinner.
 */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      networkMode: "always",
      retry: (failures, error) => failures < 1 && !isServerAnswer(error) && navigator.onLine,
      refetchOnWindowFocus: false,
    },
    mutations: { networkMode: "always" },
  },
});

export function App() {
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>
  );
}
