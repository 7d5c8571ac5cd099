/** The de-duplication key of SPEC §7: url, method, batoken, ba-user-token, params and body. */
export function pendingKey(config: {
  url?: string;
  method?: string;
  headers?: Record<string, unknown>;
  params?: unknown;
  data?: unknown;
}): string {
  const h = config.headers ?? {};
  const data = typeof config.data === "string" ? config.data : JSON.stringify(config.data);
  return [
    config.url,
    (config.method ?? "get").toLowerCase(),
    h.batoken ?? "",
    h["ba-user-token"] ?? "",
    JSON.stringify(config.params),
    data,
  ].join("&");
}

/** Pending requests by key: a repeat cancels the earlier identical request still in flight. */
export class PendingRequests {
  private readonly map = new Map<string, AbortController>();

  /** Registers a request, aborting an identical one still pending. */
  add(key: string, controller: AbortController): void {
    this.map.get(key)?.abort();
    this.map.set(key, controller);
  }

  /** Forgets a finished request (only if it is still the registered one). */
  remove(key: string, controller: AbortController): void {
    if (this.map.get(key) === controller) this.map.delete(key);
  }

  get size(): number {
    return this.map.size;
  }
}
