import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { examQueries } from "../../src/client/features/exam/api.ts";
import OfficialTakingPage from "../../src/client/features/exam/OfficialTakingPage.tsx";
import { deleteMemberDb } from "../../src/client/offline/db.ts";
import { keepOfficialAttempt, startOffline, stopOffline, storedOfficial } from "../../src/client/offline/index.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";

// The app's HTTP client, replaced: the sync engine finds no network; the submission is answered.
const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; data?: unknown }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

const UUID = "33333333-3333-4333-8333-333333333333";

function start(): OfficialStart {
  const now = Math.floor(Date.now() / 1000);
  return {
    attempt: { uuid: UUID, roomId: 4, roomTitle: "Road rules final", paperId: 9, startedAt: now, deadline: now + 600, serverTime: now, answers: {} },
    questions: [
      { id: 11, type: "single", classifyId: 1, stem: "Red light?", options: [{ key: "A", text: "Stop" }, { key: "B", text: "Go" }], score: 5, difficulty: 1 },
      { id: 12, type: "judge", classifyId: 1, stem: "Seat belts save lives", options: [], score: 1, difficulty: 1 },
    ],
  };
}

describe("OfficialTakingPage", () => {
  afterEach(() => {
    stopOffline();
    api.request.mockReset();
  });

  it("queues each answer in the outbox at once and submits every answer with when it was made", async () => {
    const memberId = 4301;
    useUserInfo.setState({ id: memberId, token: "t" });
    const submitted: unknown[] = [];
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/official/submit") {
        submitted.push(config.data);
        return { code: 1, msg: "Submitted", time: 0, data: { uuid: UUID, score: 5, passed: false } };
      }
      throw new Error("offline");
    });
    const db = await act(async () => startOffline(memberId));
    await keepOfficialAttempt(db, start());
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // The catalogue as the official exams tab left it: its attempts left are stale once submitted.
    client.setQueryData(examQueries.catalog().queryKey, { classify: [], papers: [], rooms: [] });
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <MemoryRouter initialEntries={[`/exam/my_test_detail?official=${UUID}`]}>
            <Routes>
              <Route path="/exam/my_test_detail" element={<OfficialTakingPage />} />
              <Route path="/exam/examResult" element={<p>result page</p>} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </I18nProvider>,
    );
    expect(await screen.findByRole("heading", { name: "Road rules final" })).toBeInTheDocument();
    const user = userEvent.setup();
    // Each question's header shows the points the paper gives it.
    expect(within(screen.getByRole("region", { name: "Question 1 of 2" })).getByText("5 points")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Next question" }));
    expect(within(screen.getByRole("region", { name: "Question 2 of 2" })).getByText("1 point")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Previous" }));
    const before = Date.now();
    await user.click(screen.getByRole("radio", { name: /Stop/ }));
    // Shown at once, kept on the device, and waiting in the outbox (the server is not reachable).
    expect(screen.getByRole("radio", { name: /Stop/ })).toBeChecked();
    expect(await screen.findByText("Saved on this device, not yet on the server")).toBeInTheDocument();
    const ops = await db.outbox.toArray();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ type: "official.answer", status: "pending", payload: { uuid: UUID, questionId: 11, answer: "A" } });
    expect(ops[0]!.type === "official.answer" && ops[0]!.payload.answeredAt).toBeGreaterThanOrEqual(before - 1000);

    await user.click(screen.getByRole("button", { name: "Submit" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("1 question is not answered.");
    await user.click(within(dialog).getByRole("button", { name: "Submit anyway" }));
    expect(await screen.findByText("result page")).toBeInTheDocument();
    expect(client.getQueryState(examQueries.catalog().queryKey)?.isInvalidated).toBe(true);
    const payload = (ops[0]!.type === "official.answer" && ops[0]!.payload) || null;
    expect(submitted).toEqual([{ uuid: UUID, answers: { "11": "A" }, answeredAt: { "11": payload!.answeredAt } }]);
    // Submitted with every answer: the attempt and its queued answer leave the device.
    expect(await storedOfficial(db, UUID)).toBeNull();
    expect(await db.outbox.count()).toBe(0);
    stopOffline();
    await deleteMemberDb(memberId);
  });

  it("keeps and queues a text answer as the server can store it: a pasted NUL or broken character is cleaned", async () => {
    const memberId = 4302;
    useUserInfo.setState({ id: memberId, token: "t" });
    api.request.mockImplementation(async () => {
      throw new Error("offline");
    });
    const db = await act(async () => startOffline(memberId));
    const exam = start();
    await keepOfficialAttempt(db, { ...exam, questions: [{ id: 13, type: "short", classifyId: 1, stem: "Why stop at a red light?", options: [], score: 5, difficulty: 1 }] });
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
    fireEvent.change(screen.getByRole("textbox"), { target: { value: "Safe\u0000ty \ud800first" } });
    expect(await screen.findByText("Saved on this device, not yet on the server")).toBeInTheDocument();
    const ops = await db.outbox.toArray();
    expect(ops.map((op) => op.type === "official.answer" && op.payload.answer)).toEqual(["Safety \ufffdfirst"]);
    expect((await storedOfficial(db, UUID))?.answers).toEqual({ "13": "Safety \ufffdfirst" });
    stopOffline();
    await deleteMemberDb(memberId);
  });
});
