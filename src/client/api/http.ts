import type { AxiosInstance, AxiosRequestConfig, AxiosResponse } from "axios";
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import {
  ApiCode,
  HEADER_ADMIN_TOKEN,
  HEADER_LANGUAGE,
  HEADER_USER_TOKEN,
  REQUEST_TIMEOUT_MS,
} from "../../shared/constants.ts";
import type { Envelope } from "../../shared/envelope.ts";
import { onceUntilFailed } from "../../shared/once.ts";
import { ApiError, downloadFailure } from "./errors.ts";
import { httpErrorMessage } from "./messages.ts";
import { PendingRequests, pendingKey } from "./pending.ts";
import { nextTask } from "../browser/nextTask.ts";

/** Per-request switches; defaults as SPEC §9 says. */
export interface RequestOptions {
  /** Cancel an identical request still in flight (default on). */
  cancelDuplicateRequest: boolean;
  /** Show the loading overlay while this request runs (default off). */
  loading: boolean;
  /** Resolve with the envelope (default) or, when false, with the whole axios response. */
  reductDataFormat: boolean;
  /** Toast HTTP and network errors (default on). */
  showErrorMessage: boolean;
  /** Toast the server's msg when code is not 1 (default on). */
  showCodeMessage: boolean;
  /** Toast the server's msg (or "Operation successful") on success (default off). */
  showSuccessMessage: boolean;
  /** Send this admin token instead of the stored one. */
  anotherToken?: string;
}

export const defaultRequestOptions: RequestOptions = {
  cancelDuplicateRequest: true,
  loading: false,
  reductDataFormat: true,
  showErrorMessage: true,
  showCodeMessage: true,
  showSuccessMessage: false,
};

export type Side = "admin" | "user";

export interface TokenStore {
  getToken(type?: "auth" | "refresh"): string;
  setToken(token: string, type: "auth" | "refresh"): void;
  removeToken(): void;
}

/** What the client needs from the app around it (stores, router, toasts); tests pass their own. */
export interface HttpDeps {
  baseURL?: string;
  language(): string;
  tokens: Record<Side, TokenStore>;
  /** Current page path, e.g. "/admin/login". */
  currentPath(): string;
  navigate(to: { path?: string; name?: string }): void;
  online(): boolean;
  notify: { error(text: string): void; success(text: string): void };
  translate(message: MessageDescriptor): string;
  loading: { open(): void; close(): void };
}

export const LOGIN_PATH: Record<Side, string> = { admin: "/admin/login", user: "/" };
export const BASE_PATH: Record<Side, string> = { admin: "/admin", user: "/user" };
export const LOGGED_IN_PATH = "/user/course/my_course";
const REFRESH_URL = "/api/common/refreshToken";

/** The server's answer to a request it refused (an envelope with a code): asking again changes nothing. */
export function isServerAnswer(error: unknown): boolean {
  return error instanceof ApiError && error.isServerAnswer;
}

/** A request rejected because the session could not be refreshed (the page went to login). */
export class SessionExpiredError extends ApiError {
  constructor(readonly side: Side) {
    super({ code: ApiCode.LOGIN, data: { type: "need login" } });
    this.name = "SessionExpiredError";
  }
}

export function isAdminPath(path: string): boolean {
  return path === "/admin" || path.startsWith("/admin/");
}

export interface HttpClient {
  request<T = unknown>(config: AxiosRequestConfig, options?: Partial<RequestOptions> & { reductDataFormat?: true }): Promise<Envelope<T>>;
  request<T = unknown>(config: AxiosRequestConfig, options: Partial<RequestOptions> & { reductDataFormat: false }): Promise<AxiosResponse<Envelope<T>>>;
  readonly pending: PendingRequests;
  /**
   * The 409 path for a request made outside axios (the terminal's stream): one refresh of the
   * side's tokens however many wait, after which the caller sends again with the new token.
   * Rejects (and goes to login) when the session cannot be renewed.
   */
  refreshAfterExpiry(side: Side, sentToken: string): Promise<void>;
  /** Downloads and sets up axios now, ahead of the first request (a failure is left for that request to meet). */
  warm(): void;
}

/**
 * The one HTTP client (SPEC §4, §7, §8, §9): language and token headers, de-duplication, the
 * loading counter, the envelope, one token refresh on 409 however many requests fail at once,
 * 302/303 navigation and the error catalogue.
 */
export function createHttpClient(deps: HttpDeps): HttpClient {
  // axios comes with the first request, not with the first screen (the first visit's
  // JavaScript); a failed download (offline, a deploy replaced the chunk) is tried again next time.
  const axiosInstance = onceUntilFailed(
    async (): Promise<AxiosInstance> => {
      const axios = (await import("axios")).default;
      // Its first request in the next task: evaluating axios and making that request are each
      // short enough on a phone, both in one task are not (Total Blocking Time; browser/nextTask.ts).
      await nextTask();
      return axios.create({ baseURL: deps.baseURL ?? "", timeout: REQUEST_TIMEOUT_MS });
    },
  );
  const pending = new PendingRequests();
  const refreshing: Partial<Record<Side, Promise<void>>> = {};

  /** Admin side: an admin API URL, or any call made from the admin area. */
  const sideOf = (url = ""): Side => (isAdminPath(url) || isAdminPath(deps.currentPath()) ? "admin" : "user");

  function headersFor(options: RequestOptions): Record<string, string> {
    return {
      [HEADER_LANGUAGE]: deps.language(),
      [HEADER_ADMIN_TOKEN]: options.anotherToken ?? deps.tokens.admin.getToken("auth"),
      [HEADER_USER_TOKEN]: deps.tokens.user.getToken("auth"),
    };
  }

  /** One refresh per side at a time; every 409 waiting on it replays afterwards. */
  function refresh(side: Side, sentToken: string): Promise<void> {
    const current = deps.tokens[side].getToken("auth");
    // Refreshed already since this request was sent: replay with the new token.
    if (current && current !== sentToken) return Promise.resolve();
    refreshing[side] ??= doRefresh(side).finally(() => {
      delete refreshing[side];
    });
    return refreshing[side];
  }

  /**
   * Exchanges the side's refresh token (rotated by the server: the answer carries the new
   * refresh token, stored with the new access token; the old one stops working). Without a
   * refresh token nothing is posted: the session cannot be renewed.
   */
  async function doRefresh(side: Side): Promise<void> {
    const store = deps.tokens[side];
    try {
      const refreshToken = store.getToken("refresh");
      if (!refreshToken) throw new Error("no refresh token");
      const res = await (await axiosInstance()).post<Envelope<{ type: string; token: string; refreshToken?: string }>>(
        REFRESH_URL,
        { refreshToken, side },
        { headers: headersFor(defaultRequestOptions) },
      );
      const body = res.data;
      if (body?.code !== ApiCode.SUCCESS || !body.data?.token) throw new Error(body?.msg || "refresh failed");
      const target = body.data.type === "admin-refresh" ? deps.tokens.admin : body.data.type === "user-refresh" ? deps.tokens.user : null;
      if (!target) throw new Error(`unexpected refresh type ${body.data.type}`);
      target.setToken(body.data.token, "auth");
      if (body.data.refreshToken) target.setToken(body.data.refreshToken, "refresh");
    } catch {
      store.removeToken();
      if (deps.currentPath() !== LOGIN_PATH[side]) {
        deps.navigate({ path: LOGIN_PATH[side] });
        throw new SessionExpiredError(side);
      }
      // Already on the login page: the waiting requests go again with an empty token.
    }
  }

  function handleCode(body: Envelope, side: Side, options: RequestOptions): void {
    if (options.showCodeMessage && body.msg) deps.notify.error(body.msg);
    const data = (body.data ?? {}) as { routePath?: string; routeName?: string; type?: string };
    if (body.code === ApiCode.REDIRECT) {
      deps.navigate({ path: data.routePath, name: data.routeName });
    } else if (body.code === ApiCode.LOGIN) {
      if (data.type === "need login") {
        deps.tokens[side].removeToken();
        deps.navigate({ path: side === "admin" ? LOGIN_PATH.admin : "/" });
      } else if (data.type === "logged in") {
        deps.navigate({ path: LOGGED_IN_PATH });
      } else {
        deps.navigate({ path: BASE_PATH[side] });
      }
    }
  }

  async function execute(config: AxiosRequestConfig, options: RequestOptions, replay: boolean): Promise<AxiosResponse<Envelope>> {
    const side = sideOf(config.url);
    const tokenHeaders = headersFor(options);
    const cfg: AxiosRequestConfig = { ...config, headers: { ...(config.headers as object), ...tokenHeaders } };
    const controller = new AbortController();
    const key = options.cancelDuplicateRequest ? pendingKey(cfg as Parameters<typeof pendingKey>[0]) : undefined;
    if (key) pending.add(key, controller);
    // A caller's own signal cancels too.
    config.signal?.addEventListener?.("abort", () => controller.abort());

    let response: AxiosResponse<Envelope>;
    try {
      let client: AxiosInstance;
      try {
        client = await axiosInstance();
      } catch (error) {
        const failure = downloadFailure(error, deps.online(), deps.translate);
        if (options.showErrorMessage) deps.notify.error(failure.msg);
        throw failure;
      }
      response = await client.request<Envelope>({ ...cfg, signal: controller.signal });
    } catch (error) {
      if (error instanceof ApiError) throw error;
      const message = httpErrorMessage(error, deps.online());
      const text = message ? deps.translate(message) : "";
      if (text && options.showErrorMessage) deps.notify.error(text);
      throw ApiError.fromHttp(error, text);
    } finally {
      if (key) pending.remove(key, controller);
    }

    const body = response.data;
    if (body && typeof body === "object" && "code" in body && body.code !== ApiCode.SUCCESS) {
      if (body.code === ApiCode.TOKEN_EXPIRED && !replay) {
        const sent = side === "admin" ? tokenHeaders[HEADER_ADMIN_TOKEN]! : tokenHeaders[HEADER_USER_TOKEN]!;
        await refresh(side, sent);
        return execute(config, options, true);
      }
      handleCode(body, side, options);
      throw ApiError.fromEnvelope(body, response.status);
    }
    if (options.showSuccessMessage) {
      deps.notify.success(body?.msg || deps.translate(msg`Operation successful`));
    }
    return response;
  }

  async function request(config: AxiosRequestConfig, opts: Partial<RequestOptions> = {}) {
    const options = { ...defaultRequestOptions, ...opts };
    if (options.loading) deps.loading.open();
    try {
      const response = await execute(config, options, false);
      return options.reductDataFormat ? response.data : response;
    } finally {
      if (options.loading) deps.loading.close();
    }
  }

  return { request: request as HttpClient["request"], pending, refreshAfterExpiry: refresh, warm: () => void axiosInstance().catch(() => undefined) };
}
