import { i18n } from "@lingui/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * api/index.ts loads the request layer (api/client.ts) with the first request. When that download
 * fails, the request fails as a network failure (an ApiError with `network`), as when axios's own
 * download fails: the offline queue then waits for the network instead of blaming the batch
 * (offline/sync.ts classifyError), and the member sees the one error toast. The next request
 * tries the download again.
 */
const toastError = vi.fn();
vi.mock("../../src/client/ui/toast.ts", () => ({ toast: { error: toastError, success: vi.fn() } }));

let downloadFails = true;
const fakeClient = { request: vi.fn(async () => ({ code: 1, msg: "", data: "loaded", time: 0 })), refreshAfterExpiry: vi.fn(async () => undefined) };
vi.mock("../../src/client/api/client.ts", () => ({
  createAppClient: () => {
    if (downloadFails) throw new TypeError("Failed to fetch dynamically imported module");
    return fakeClient;
  },
}));

describe("the request facade (api/index.ts)", () => {
  beforeEach(() => {
    i18n.loadAndActivate({ locale: "en", messages: {} });
    toastError.mockClear();
  });
  afterEach(() => {
    downloadFails = true;
  });

  it("answers a failed download of the request layer as a network failure, with one toast, and loads it again next time", async () => {
    const { request, ApiError } = await import("../../src/client/api/index.ts");
    const { classifyError, blamesBatch } = await import("../../src/client/offline/sync.ts");
    const failed = await request({ url: "/api/exam/sync", method: "post" }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ApiError);
    expect(failed).toMatchObject({ network: true, code: null, status: null });
    expect(classifyError(failed)).toBe("offline");
    expect(blamesBatch(failed)).toBe(false);
    expect(toastError).toHaveBeenCalledTimes(1);
    expect(toastError.mock.calls[0]![0]).toBe((failed as InstanceType<typeof ApiError>).msg);

    // Quiet requests stay quiet.
    await expect(request({ url: "/api/index/index", method: "get" }, { showErrorMessage: false })).rejects.toBeInstanceOf(ApiError);
    expect(toastError).toHaveBeenCalledTimes(1);

    downloadFails = false;
    await expect(request({ url: "/api/index/index", method: "get" })).resolves.toMatchObject({ data: "loaded" });
    expect(fakeClient.request).toHaveBeenCalledWith({ url: "/api/index/index", method: "get" }, undefined);
  });
});
