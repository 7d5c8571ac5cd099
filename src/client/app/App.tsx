import { RouterProvider } from "react-router-dom";
import { i18n } from "../i18n/index.ts";
import { MessagesProvider } from "../i18n/MessagesProvider.tsx";
import { router } from "./router.tsx";

/** The app: messages around the router. The query cache is a layout route (app/queries.tsx). */
export function App() {
  return (
    <MessagesProvider i18n={i18n}>
      <RouterProvider router={router} />
    </MessagesProvider>
  );
}
