import { examStateSchema, reviewStateSchema, syncResponseSchema, type ExamState, type ReviewState, type SyncResult } from "../../shared/sync/wire.ts";
import type { Op } from "../../shared/sync/ops.ts";
import type { Envelope } from "../../shared/envelope.ts";
import type { RequestOptions } from "../api/http.ts";

/** The HTTP client's envelope call, as far as sync needs it. */
export type EnvelopeRequest = (
  config: { url: string; method: "get" | "post"; data?: unknown },
  options: Partial<RequestOptions> & { reductDataFormat?: true },
) => Promise<Envelope<unknown>>;

/** Sync traffic is background work: no toasts, no de-duplication; 409 refresh still applies. */
export const SYNC_REQUEST_OPTIONS = {
  showErrorMessage: false,
  showCodeMessage: false,
  cancelDuplicateRequest: false,
} satisfies Partial<RequestOptions>;

/**
 * The sync engine's two calls over an HTTP client (the app's one client; tests pass one aimed at
 * a real local server): `POST /api/exam/sync`, `GET /api/exam/state` and `GET /api/exam/review/state`, answers checked against
 * the shared schemas (a malformed answer throws, like a failed request).
 */
export function createSyncTransport(request: EnvelopeRequest): {
  send(ops: Op[]): Promise<SyncResult[]>;
  pull(): Promise<ExamState>;
  pullReview(): Promise<ReviewState>;
} {
  return {
    async send(ops) {
      const envelope = await request({ url: "/api/exam/sync", method: "post", data: { ops } }, SYNC_REQUEST_OPTIONS);
      return syncResponseSchema.parse(envelope.data).results;
    },
    async pull() {
      const envelope = await request({ url: "/api/exam/state", method: "get" }, SYNC_REQUEST_OPTIONS);
      return examStateSchema.parse(envelope.data);
    },
    async pullReview() {
      const envelope = await request({ url: "/api/exam/review/state", method: "get" }, SYNC_REQUEST_OPTIONS);
      return reviewStateSchema.parse(envelope.data);
    },
  };
}
