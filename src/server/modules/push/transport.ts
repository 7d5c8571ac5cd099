/**
 * The push service is an outside edge (Mozilla's autopush, Google's FCM, Apple's): what leaves
 * the server is one HTTP POST per subscription, made and encrypted by `web-push`. This interface
 * is that POST, so tests fake the push service's answer (201, 404, 410...) and nothing else.
 */
export interface PushRequest {
  endpoint: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

export interface PushTransport {
  /** Sends the request; resolves with the push service's HTTP status, rejects when it cannot be reached. */
  send(request: PushRequest): Promise<{ status: number }>;
}

/** The real one: `fetch`, 10 s at most, no redirects (an endpoint is a capability URL, never followed). */
export const fetchTransport: PushTransport = {
  async send(request) {
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers,
      body: request.body ? new Uint8Array(request.body) : null,
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status };
  },
};
