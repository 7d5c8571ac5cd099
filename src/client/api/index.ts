import { i18n } from "@lingui/core";
import { toast } from "../ui/toast.ts";
import { useAdminInfo } from "../stores/adminInfo.ts";
import { useConfig } from "../stores/config.ts";
import { useUserInfo } from "../stores/userInfo.ts";
import { createHttpClient } from "./http.ts";
import { useRequestLoading } from "./loading.ts";

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

/** The app's one HTTP client: every request of the app goes through it. */
export const http = createHttpClient({
  language: () => useConfig.getState().lang.defaultLang,
  tokens: {
    admin: {
      getToken: (type) => useAdminInfo.getState().getToken(type),
      setToken: (token, type) => useAdminInfo.getState().setToken(token, type),
      removeToken: () => useAdminInfo.getState().removeToken(),
    },
    user: {
      getToken: (type) => useUserInfo.getState().getToken(type),
      setToken: (token, type) => useUserInfo.getState().setToken(token, type),
      removeToken: () => useUserInfo.getState().removeToken(),
    },
  },
  currentPath: () => window.location.pathname,
  navigate: (to) => navigateImpl(to),
  online: () => navigator.onLine,
  notify: {
    // One toast per message on screen: a retried request, or several that fail together (the
    // server is down), update the same toast instead of stacking copies of it.
    error: (text) => toast.error(text, { id: `error:${text}` }),
    success: (text) => toast.success(text),
  },
  translate: (message) => i18n._(message),
  loading: {
    open: () => useRequestLoading.getState().open(),
    close: () => useRequestLoading.getState().close(),
  },
});

export const request = http.request;
