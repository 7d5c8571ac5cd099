import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MarkDialog } from "../../src/client/admin/exam/MarkDialog.tsx";
import { RoomResults } from "../../src/client/admin/exam/RoomResults.tsx";
import OfficialTakingPage from "../../src/client/features/exam/OfficialTakingPage.tsx";
import { deleteMemberDb } from "../../src/client/offline/db.ts";
import { keepOfficialAttempt, startOffline, stopOffline } from "../../src/client/offline/index.ts";
import {
  finishOfficial,
  forgetEndedOfficial,
  notePageBack,
  notePageLeft,
  storedOfficial,
  unsentPageLeaves,
} from "../../src/client/offline/repository/index.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";
import { parseOp, type Op } from "../../src/shared/sync/ops.ts";
import { memberDbs } from "../helpers/memberDb.ts";

/**
 * Page leaves of official exams on the device: the exam page hidden and shown again is
 * written on the device first, with times on the server's clock, and queued as an
 * `official.leave` op that the sync engine sends with the answers, once the network is back.
 */

const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; method?: string; data?: unknown }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

const UUID = "44444444-4444-4444-8444-444444444444";
/** The server's clock at start (s). */
const SERVER_START = Date.UTC(2026, 10, 24, 10) / 1000;

const exam = (startSeconds = SERVER_START, uuid = UUID): OfficialStart => ({
  attempt: { uuid, roomId: 4, roomTitle: "Road rules final", paperId: 9, startedAt: startSeconds, deadline: startSeconds + 600, serverTime: startSeconds, answers: {} },
  questions: [{ id: 11, type: "single", classifyId: 1, stem: "Red light?", options: [{ key: "A", text: "Stop" }, { key: "B", text: "Go" }], score: 5, difficulty: 1 }],
});

const ids = () => {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
};

const freshDb = memberDbs(9_700);

describe("page leaves on the device", () => {
  it("note when the page was hidden and shown again on the server's clock, and queue one op the server's schema accepts", async () => {
    const db = freshDb();
    const newId = ids();
    // This device's clock runs 30 s behind the server's.
    const device0 = SERVER_START * 1000 - 30_000;
    await keepOfficialAttempt(db, exam(), { now: () => device0 });
    expect(await notePageLeft(db, UUID, { now: () => device0 + 60_000 })).toBe(true);
    // Hidden again (pagehide after visibilitychange): the first departure stands.
    expect(await notePageLeft(db, UUID, { now: () => device0 + 61_000 })).toBe(false);
    expect(await db.outbox.count()).toBe(0);
    expect(await notePageBack(db, UUID, { now: () => device0 + 190_000, newId })).toBe(true);
    // Shown again twice: one leave.
    expect(await notePageBack(db, UUID, { now: () => device0 + 200_000, newId })).toBe(false);
    const ops = await db.outbox.toArray();
    expect(ops.map((op) => [op.type, op.status, op.payload])).toEqual([["official.leave", "pending", { uuid: UUID, leftAt: SERVER_START * 1000 + 60_000, backAt: SERVER_START * 1000 + 190_000 }]]);
    expect(parseOp({ id: ops[0]!.id, type: ops[0]!.type, at: ops[0]!.at, payload: ops[0]!.payload }, SERVER_START * 1000 + 200_000).ok).toBe(true);
    expect(await unsentPageLeaves(db, UUID)).toBe(1);
    expect((await storedOfficial(db, UUID))?.leftAt).toBeUndefined();
  });

  it("do nothing for an attempt the device does not hold or whose time is up; a leave open at the deadline ends there", async () => {
    const db = freshDb();
    const t0 = SERVER_START * 1000;
    expect(await notePageLeft(db, UUID, { now: () => t0 })).toBe(false);
    await keepOfficialAttempt(db, exam(), { now: () => t0 });
    expect(await notePageLeft(db, UUID, { now: () => t0 + 600_000 })).toBe(false);
    // Left a minute before the deadline and the page was closed: entering again keeps the leave open...
    expect(await notePageLeft(db, UUID, { now: () => t0 + 540_000 })).toBe(true);
    await keepOfficialAttempt(db, exam(), { now: () => t0 + 550_000 });
    expect((await storedOfficial(db, UUID))?.leftAt).toBe(t0 + 540_000);
    // ...and, never shown again before the time was up, it ends at the deadline when the device forgets the attempt.
    expect(await forgetEndedOfficial(db, { now: () => t0 + 3_600_000, newId: ids() })).toBe(1);
    const ops = await db.outbox.toArray();
    expect(ops.map((op) => op.payload)).toEqual([{ uuid: UUID, leftAt: t0 + 540_000, backAt: t0 + 600_000 }]);
  });

  it("stay queued when the attempt is submitted (the submission does not carry them)", async () => {
    const db = freshDb();
    const t0 = SERVER_START * 1000;
    await keepOfficialAttempt(db, exam(), { now: () => t0 });
    await notePageLeft(db, UUID, { now: () => t0 + 1000 });
    await notePageBack(db, UUID, { now: () => t0 + 5000 });
    await finishOfficial(db, UUID);
    expect(await storedOfficial(db, UUID)).toBeNull();
    expect(await unsentPageLeaves(db, UUID)).toBe(1);
  });
});

describe("the official exam page", () => {
  let online = false;
  const onLine = vi.spyOn(navigator, "onLine", "get").mockImplementation(() => online);
  let visibility: DocumentVisibilityState = "visible";
  vi.spyOn(document, "visibilityState", "get").mockImplementation(() => visibility);
  const setVisibility = (next: DocumentVisibilityState) => {
    visibility = next;
    document.dispatchEvent(new Event("visibilitychange"));
  };

  afterEach(() => {
    stopOffline();
    api.request.mockReset();
    onLine.mockClear();
  });

  it("queues a leave made offline and sends it to the server when the network is back", async () => {
    const memberId = 9_801;
    useUserInfo.setState({ id: memberId, token: "t" });
    const sent: Op[] = [];
    api.request.mockImplementation(async (config) => {
      if (!online) throw new Error("offline");
      if (config.url === "/api/exam/sync") {
        const ops = (config.data as { ops: Op[] }).ops;
        sent.push(...ops);
        // The server's op schema takes each op as it is.
        return { code: 1, msg: "", time: 0, data: { results: ops.map((op) => ({ id: op.id, status: parseOp(op, Date.now()).ok ? "applied" : "rejected" })) } };
      }
      if (config.url === "/api/exam/state") return { code: 1, msg: "", time: 0, data: { favourites: [], wrong: [], progress: [] } };
      if (config.url === "/api/exam/review/state") return { code: 1, msg: "", time: 0, data: { retention: 0.9, retentionAt: 0, logs: [] } };
      throw new Error(`unexpected ${String(config.url)}`);
    });
    online = false;
    visibility = "visible";
    const db = await act(async () => startOffline(memberId));
    await keepOfficialAttempt(db, exam(Math.floor(Date.now() / 1000)));
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter initialEntries={[`/exam/my_test_detail?official=${UUID}`]}>
            <Routes>
              <Route path="/exam/my_test_detail" element={<OfficialTakingPage />} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </I18nProvider>,
    );
    expect(await screen.findByRole("heading", { name: "Road rules final" })).toBeInTheDocument();
    // The member is told, in one line.
    expect(screen.getByTestId("leave-notice")).toHaveTextContent("Leaving this page during the exam (another tab or app, a locked screen) is recorded for the markers.");

    const before = Date.now();
    act(() => setVisibility("hidden"));
    await waitFor(async () => expect((await storedOfficial(db, UUID))?.leftAt).toBeDefined());
    await new Promise((resolve) => setTimeout(resolve, 20));
    act(() => setVisibility("visible"));
    await waitFor(async () => expect(await unsentPageLeaves(db, UUID)).toBe(1));
    const [queued] = await db.outbox.toArray();
    expect(queued).toMatchObject({ type: "official.leave", status: "pending" });
    const payload = queued!.payload as { uuid: string; leftAt: number; backAt: number };
    expect(payload.uuid).toBe(UUID);
    expect(payload.leftAt).toBeGreaterThanOrEqual(before - 2000);
    expect(payload.backAt).toBeGreaterThan(payload.leftAt);
    // Offline: nothing reached the server.
    expect(sent).toEqual([]);

    // The network is back: the engine sends the queued leave, and the device forgets it once taken.
    online = true;
    await act(async () => {
      window.dispatchEvent(new Event("online"));
    });
    await waitFor(() => expect(sent.map((op) => op.type)).toEqual(["official.leave"]));
    expect(sent[0]!.payload).toEqual(payload);
    await waitFor(async () => expect(await unsentPageLeaves(db, UUID)).toBe(0));
    stopOffline();
    await deleteMemberDb(memberId);
  });

  it("ends on opening the page a leave its closing left open (a reload counts as leaving)", async () => {
    const memberId = 9_802;
    useUserInfo.setState({ id: memberId, token: "t" });
    api.request.mockImplementation(async () => {
      throw new Error("offline");
    });
    online = false;
    visibility = "visible";
    const db = await act(async () => startOffline(memberId));
    await keepOfficialAttempt(db, exam(Math.floor(Date.now() / 1000)));
    // The page was closed (pagehide) during the exam...
    await notePageLeft(db, UUID);
    expect(await unsentPageLeaves(db, UUID)).toBe(0);
    // ...and opened again.
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter initialEntries={[`/exam/my_test_detail?official=${UUID}`]}>
            <Routes>
              <Route path="/exam/my_test_detail" element={<OfficialTakingPage />} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </I18nProvider>,
    );
    expect(await screen.findByRole("heading", { name: "Road rules final" })).toBeInTheDocument();
    await waitFor(async () => expect(await unsentPageLeaves(db, UUID)).toBe(1));
    expect((await storedOfficial(db, UUID))?.leftAt).toBeUndefined();
    // A pagehide while the page is open starts a new one.
    act(() => {
      window.dispatchEvent(new Event("pagehide"));
    });
    await waitFor(async () => expect((await storedOfficial(db, UUID))?.leftAt).toBeDefined());
    stopOffline();
    await deleteMemberDb(memberId);
  });
});

describe("what markers see", () => {
  afterEach(() => api.request.mockReset());

  const wrap = (ui: React.ReactNode) =>
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>
      </I18nProvider>,
    );

  it("the mark dialog: how many times and how long in all, and each leave", async () => {
    const t0 = Date.UTC(2026, 10, 24, 10);
    const leaves = [
      { leftAt: t0, backAt: t0 + 70_000 },
      { leftAt: t0 + 100_000, backAt: t0 + 150_000 },
      { leftAt: t0 + 200_000, backAt: t0 + 210_000 },
    ];
    api.request.mockImplementation(async (config) => {
      if (config.url === "/admin/exam/marking/edit") return { code: 1, msg: "", time: 0, data: { row: { id: 5, page_leave_list: leaves } } };
      throw new Error(`unexpected ${String(config.url)}`);
    });
    const row = { id: 5, status: "pending", username: "ann", stem: "Why?", answer: "Because", max_score: 10, page_leaves: 3, page_leave_ms: 130_000 };
    wrap(<MarkDialog row={row} onDone={() => undefined} />);
    expect(screen.getByTestId("page-leaves")).toHaveTextContent("Left the page 3 times, 2 min 10 s in all");
    const list = await screen.findByTestId("page-leave-list");
    expect(list.querySelectorAll("li")).toHaveLength(3);
    expect(list).toHaveTextContent("(1 min 10 s)");
    expect(list).toHaveTextContent("(10 s)");
  });

  it("the mark dialog and the room results of a member who never left", async () => {
    wrap(<MarkDialog row={{ id: 6, status: "pending", username: "bo", stem: "Why?", answer: "", max_score: 10, page_leaves: 0, page_leave_ms: 0 }} onDone={() => undefined} />);
    expect(screen.getByTestId("page-leaves")).toHaveTextContent("Did not leave the page");
    expect(screen.queryByTestId("page-leave-list")).toBeNull();
    expect(api.request).not.toHaveBeenCalled();
  });

  it("the room results: per attempt", async () => {
    const attempt = { userId: 1, nickname: "", score: 8, passed: true, status: "submitted", startedAt: 1_790_000_000, submittedAt: 1_790_000_600, timeUsed: 600, pendingMarks: 0 };
    api.request.mockImplementation(async () => ({
      code: 1,
      msg: "",
      time: 0,
      data: {
        room: { id: 1, title: "Final", paperTitle: "Paper", totalScore: 10, passScore: 6 },
        attempts: [
          { ...attempt, id: 1, username: "ann", pageLeaves: { count: 1, totalMs: 45_000 } },
          { ...attempt, id: 2, username: "bo", pageLeaves: { count: 0, totalMs: 0 } },
        ],
        summary: { attempts: 2, members: 2, finished: 2, passed: 2, average: 8, highest: 8, lowest: 8 },
        distribution: [],
        items: [],
      },
    }));
    wrap(<RoomResults row={{ id: 1 }} onDone={() => undefined} />);
    const cells = await screen.findAllByTestId("attempt-page-leaves");
    expect(cells.map((c) => c.textContent)).toEqual(["Left the page once, 45 s in all", "Did not leave the page"]);
  });
});
