import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router-dom";
import { isServerAnswer } from "../api/http.ts";
import { i18n } from "../i18n/index.ts";
import { router } from "./router.tsx";

const queryClient = new QueryClient({
  // One retry for a failed connection; a refusal from the server is final (and toasted once).
  defaultOptions: { queries: { retry: (failures, error) => failures < 1 && !isServerAnswer(error), refetchOnWindowFocus: false } },
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
