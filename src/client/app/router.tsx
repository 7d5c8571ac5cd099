import { createBrowserRouter } from "react-router-dom";
import { Shell } from "./Shell.tsx";

/** Routes; each screen is its own lazy chunk. */
export const router = createBrowserRouter([
  {
    element: <Shell />,
    children: [
      { path: "/", lazy: async () => ({ Component: (await import("./pages/HomePage.tsx")).HomePage }) },
      { path: "*", lazy: async () => ({ Component: (await import("./pages/NotFoundPage.tsx")).NotFoundPage }) },
    ],
  },
]);
