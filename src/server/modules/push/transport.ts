import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { RequestFilteringHttpsAgent } from "request-filtering-agent";
import type { ResolveHost } from "./endpoint.ts";

/**
 * The push service is an outside edge (Mozilla's autopush, Google's FCM, Apple's): what leaves
 * the server is one HTTP POST per subscription, made and encrypted by `web-push`. This interface
 * is that POST and the name lookup of the endpoint's host, so tests fake the push service's
 * answer (201, 404, 410...) and its addresses, and nothing else.
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
  /** Every address the host name resolves to (the subscribe-time check, endpoint.ts). */
  resolve: ResolveHost;
}

export interface HttpsTransportOptions {
  /** The resolver the connections and `resolve` use (`dns.lookup` by default; tests give their own). */
  lookup?: LookupFunction;
  /** The whole request, connection to status line, at most (10 s by default). */
  timeoutMs?: number;
}

/**
 * The real one: `https.request` through `request-filtering-agent`, which checks the address each
 * connection is about to use, after the name lookup, and refuses anything but a public unicast
 * address (loopback, private, link-local, reserved, multicast, the unspecified address...). So a
 * name that resolved to a public address when the member subscribed and resolves to 127.0.0.1
 * or 169.254.169.254 now (DNS rebinding) is refused before any byte is sent. No redirects (an
 * endpoint is a capability URL, never followed), no keep-alive, 10 s at most.
 */
export function httpsTransport(options: HttpsTransportOptions = {}): PushTransport {
  const lookup = options.lookup ?? (dnsLookup as LookupFunction);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const agent = new RequestFilteringHttpsAgent({ lookup, keepAlive: false });
  return {
    send(request) {
      return new Promise((resolve, reject) => {
        const req = httpsRequest(request.endpoint, { method: request.method, headers: request.headers, agent });
        const timer = setTimeout(() => req.destroy(new Error(`The push service did not answer within ${timeoutMs} ms`)), timeoutMs);
        req.on("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
        req.on("response", (res) => {
          resolve({ status: res.statusCode ?? 0 });
          // The answer's body is not needed: read and dropped, within the same time limit.
          res.on("error", () => undefined);
          res.on("close", () => clearTimeout(timer));
          res.resume();
        });
        req.end(request.body ?? undefined);
      });
    },
    resolve(hostname) {
      return new Promise((resolve, reject) => {
        lookup(hostname, { all: true }, (error, addresses) => {
          if (error) reject(error);
          else resolve((Array.isArray(addresses) ? addresses : [{ address: addresses } as LookupAddress]).map((a) => a.address));
        });
      });
    },
  };
}

/** The server's transport (the name is kept from when it used `fetch`; app.ts installs it). */
export const fetchTransport: PushTransport = httpsTransport();
