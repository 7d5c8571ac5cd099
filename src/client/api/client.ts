import { i18n } from "@lingui/core";
import { toast } from "../ui/toast.ts";
import { useAdminInfo } from "../stores/adminInfo.ts";
import { useConfig } from "../stores/config.ts";
import { useUserInfo } from "../stores/userInfo.ts";
import { createHttpClient, type HttpClient } from "./http.ts";
import { notifyRequestError } from "./index.ts";
import { useRequestLoading } from "../stores/requestLoading.ts";

/**
 * The app's one HTTP client, wired to the stores, the router and the toasts. It loads with the
 * first request (api/index.ts), not with the first screen.
 */
export function createAppClient(navigateTo: (to: { path?: string; name?: string }) => void): HttpClient {
  return createHttpClient({
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
    navigate: navigateTo,
    online: () => navigator.onLine,
    notify: {
      error: notifyRequestError,
      success: (text) => toast.success(text),
    },
    translate: (message) => i18n._(message),
    loading: {
      open: () => useRequestLoading.getState().open(),
      close: () => useRequestLoading.getState().close(),
    },
  });
}
