import type * as ApiModule from "../../src/client/api/index.ts";
import { ApiError } from "../../src/client/api/errors.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ExamRecordDetail, ExamRecordRow } from "../../src/shared/exam/catalog.ts";
import ExamResultPage, { viewOfRecord } from "../../src/client/features/exam/ExamResultPage.tsx";
import RecordsTab from "../../src/client/features/exam/RecordsTab.tsx";
import { LEGACY_KEY, flushLegacyOfficialAttempts } from "../../src/client/features/exam/official.ts";

// The app's HTTP client, replaced: these tests give the screens the server's answers.
const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; params?: unknown }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});
afterEach(() => {
  api.request.mockReset();
  localStorage.clear();
});

function wrap(ui: ReactNode, path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

const envelope = (data: unknown) => ({ code: 1, msg: "", time: 0, data });
const uuid = "33333333-3333-4333-8333-333333333333";

const record = (pendingReview: number): ExamRecordDetail => ({
  attempt: {
    uuid,
    kind: "official",
    paperId: 9,
    paperTitle: "Maths final",
    roomTitle: null,
    score: 4,
    passed: false,
    startedAt: 1_700_000_000,
    submittedAt: 1_700_000_900,
    deadline: 1_700_000_900,
    status: "expired",
    totalScore: 20,
    passScore: 12,
    pendingReview,
  },
  questions: [],
  answers: {},
  results: {},
});

const row = (id: number, pendingReview: number): ExamRecordRow => ({
  id,
  uuid: `${id}`.padStart(36, "0"),
  kind: "official",
  paperId: 9,
  paperTitle: `Maths final ${id}`,
  roomTitle: null,
  score: 4,
  totalScore: 10,
  passed: false,
  startedAt: 1_700_000_000,
  submittedAt: 1_700_000_900,
  status: "expired",
  pendingReview,
});

describe("late official answers waiting for review", () => {
  it("the result screen says how many wait and that the score counts only those in time", async () => {
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/record") return envelope(record(3));
      throw new Error("offline");
    });
    wrap(<ExamResultPage />, `/exam/examResult?uuid=${uuid}`);
    expect(await screen.findByRole("heading", { name: "Maths final" })).toBeInTheDocument();
    expect(screen.getByText(/waiting for a marker's review/)).toHaveTextContent(
      "Answers that reached the server after the deadline: 3, waiting for a marker's review. The score counts only the answers that arrived in time.",
    );
    expect(screen.getByTestId("result-score")).toHaveTextContent("4 / 20");
  });

  it("says nothing of the kind when no answer waits", async () => {
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/record") return envelope(record(0));
      throw new Error("offline");
    });
    wrap(<ExamResultPage />, `/exam/examResult?uuid=${uuid}`);
    expect(await screen.findByRole("heading", { name: "Maths final" })).toBeInTheDocument();
    expect(screen.queryByText(/waiting for a marker's review/)).toBeNull();
    expect(viewOfRecord(record(2)).pendingReview).toBe(2);
  });

  it("the records list marks the attempts whose late answers wait", async () => {
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/records") return envelope({ list: [row(1, 2), row(2, 0)], total: 2 });
      if (config.url === "/api/exam/catalog") return envelope({ classify: [], papers: [], rooms: [] });
      throw new Error("offline");
    });
    wrap(<RecordsTab />, "/exam/examTab/testRecord");
    const first = (await screen.findByRole("link", { name: "Maths final 1" })).closest("li")!;
    expect(within(first).getByText("Late answers waiting for review: 2")).toBeInTheDocument();
    const second = screen.getByRole("link", { name: "Maths final 2" }).closest("li")!;
    expect(within(second).queryByText(/waiting for review/)).toBeNull();
  });
});

describe("official answers an earlier version left in localStorage", () => {
  const legacy = (id: string, dirty = true) => ({
    attempt: { uuid: id, roomId: 1, paperId: 9, startedAt: 1_000, deadline: 1_900, serverTime: 1_000, answers: {} },
    questions: [],
    clockOffsetMs: 0,
    answers: { "5": "A", "6": "T" },
    answeredAt: { "5": 1_800_000, "6": 1_850_000 },
    dirty,
  });
  const put = (id: string, dirty = true) => localStorage.setItem(`${LEGACY_KEY}${id}`, JSON.stringify(legacy(id, dirty)));
  const left = () => Object.keys(localStorage).filter((k) => k.startsWith(LEGACY_KEY)).map((k) => k.slice(LEGACY_KEY.length)).sort();

  it("are sent once and removed when the server has them, in time or kept for review; kept when not sent", async () => {
    const inTime = "44444444-4444-4444-8444-444444444444";
    const late = "55555555-5555-4555-8555-555555555555";
    const offline = "66666666-6666-4666-8666-666666666666";
    const othersAttempt = "77777777-7777-4777-8777-777777777777";
    const saved = "88888888-8888-4888-8888-888888888888";
    for (const id of [inTime, late, offline, othersAttempt]) put(id);
    put(saved, false);
    localStorage.setItem(`${LEGACY_KEY}broken`, "{broken");
    localStorage.setItem("unrelated", "1");
    const sent: unknown[] = [];
    api.request.mockImplementation(async (config) => {
      const body = (config as { data?: { uuid: string } }).data!;
      sent.push(body);
      if (body.uuid === inTime) return envelope({ saved: 2, refused: 0, late: false });
      if (body.uuid === late) throw ApiError.fromEnvelope({ code: 0, msg: "The time for this exam is up.", data: { closed: true, pendingReview: 2, refused: 0 } }, 200);
      if (body.uuid === othersAttempt) throw ApiError.fromEnvelope({ code: 0, msg: "This exam record does not exist", data: null }, 200);
      throw new ApiError({ msg: "Network Error", network: true });
    });
    await flushLegacyOfficialAttempts();
    // Each unsent attempt was sent with every answer and the time it was made; a saved one is not sent.
    expect(sent).toHaveLength(4);
    expect(sent).toEqual(
      expect.arrayContaining([inTime, late, offline, othersAttempt].map((id) => ({ uuid: id, answers: { "5": "A", "6": "T" }, answeredAt: { "5": 1_800_000, "6": 1_850_000 } }))),
    );
    // Saved, closed (late answers are in its review queue), already saved or unreadable: gone.
    // Not sent (no network) or not this member's: kept for the next try or for its owner.
    expect(left()).toEqual([offline, othersAttempt].sort());
    expect(localStorage.getItem("unrelated")).toBe("1");
  });

  it("are sent as the server can store them: a NUL or a broken character in one answer does not get the set refused", async () => {
    for (const key of Object.keys(localStorage)) localStorage.removeItem(key);
    const id = "99999999-9999-4999-8999-999999999999";
    localStorage.setItem(`${LEGACY_KEY}${id}`, JSON.stringify({ ...legacy(id), answers: { "5": "A\u0000", "6": "T", "7": ["x\u0000y", "\ud800"] } }));
    const sent: unknown[] = [];
    api.request.mockImplementation(async (config) => {
      sent.push((config as { data?: unknown }).data);
      return envelope({ saved: 3, refused: 0, late: false, rejected: [] });
    });
    await flushLegacyOfficialAttempts();
    expect(sent).toEqual([{ uuid: id, answers: { "5": "A", "6": "T", "7": ["xy", "\ufffd"] }, answeredAt: { "5": 1_800_000, "6": 1_850_000 } }]);
    expect(left()).toEqual([]);
  });
});
