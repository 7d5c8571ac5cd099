import { afterEach, describe, expect, it, vi } from "vitest";
import { http } from "../../src/client/api/index.ts";
import { openTerminalStream } from "../../src/client/admin/terminal/stream.ts";
import { useAdminInfo } from "../../src/client/stores/adminInfo.ts";

/** The terminal's stream on the client: fetch with the token in its header, the app's refresh path on 409, refusals as reasons. */

const task = { uuid: "11111111-2222-4333-8444-555555555555", command: "version.node", extend: "" };
const sse = (events: object[]) =>
  new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""), { headers: { "content-type": "text/event-stream; charset=utf-8" } });
const json = (body: object) => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("openTerminalStream", () => {
  it("sends the token in the batoken header only and passes on this task's events", async () => {
    useAdminInfo.setState({ token: "tok-1" });
    const fetchMock = vi.fn(async () => sse([{ uuid: task.uuid, data: "command-link-success", extend: "" }, { uuid: "other", data: "not mine", extend: "" }, { uuid: task.uuid, data: "v20", extend: "" }]));
    vi.stubGlobal("fetch", fetchMock);
    const seen: string[] = [];
    const end = await openTerminalStream(task, new AbortController().signal, (d) => seen.push(d));
    expect(end).toEqual({ ok: true });
    expect(seen).toEqual(["command-link-success", "v20"]);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`/admin/ajax/terminal?command=version.node&uuid=${task.uuid}&extend=`);
    expect(url).not.toContain("tok-1");
    expect((init.headers as Record<string, string>).batoken).toBe("tok-1");
  });

  it("on 409 takes the app's refresh path once and opens the stream again with the new token", async () => {
    useAdminInfo.setState({ token: "old" });
    const refresh = vi.spyOn(http, "refreshAfterExpiry").mockImplementation(async () => {
      useAdminInfo.setState({ token: "new" });
    });
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) =>
      (init.headers as Record<string, string>).batoken === "old" ? json({ code: 409, msg: "expired", data: null }) : sse([{ uuid: task.uuid, data: "ok", extend: "" }]),
    );
    vi.stubGlobal("fetch", fetchMock);
    const seen: string[] = [];
    expect(await openTerminalStream(task, new AbortController().signal, (d) => seen.push(d))).toEqual({ ok: true });
    expect(refresh).toHaveBeenCalledWith("admin", "old");
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(seen).toEqual(["ok"]);
  });

  it("ends with the server's message when it refuses (an envelope instead of a stream)", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json({ code: 0, msg: "Another command is running: wait until it has finished", data: null })));
    expect(await openTerminalStream(task, new AbortController().signal, () => {})).toEqual({ ok: false, reason: "Another command is running: wait until it has finished" });
  });
});
