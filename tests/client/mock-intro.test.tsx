import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useSearchParams } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import MockTestTab from "../../src/client/features/exam/MockTestTab.tsx";
import { deleteMemberDb } from "../../src/client/offline/db.ts";
import { startOffline, stopOffline } from "../../src/client/offline/index.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";
import type { BankDownload, Catalog } from "../../src/shared/exam/catalog.ts";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";

// The app's HTTP client, replaced: the catalogue, the paper and its bank are answered here.
const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; params?: unknown }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

function question(id: number, type: ExamQuestion["type"], score: number): ExamQuestion {
  return { id, type, classifyId: 10, stem: `Question ${id}`, options: [{ key: "A", text: "Yes" }, { key: "B", text: "No" }], score, difficulty: 1 };
}

const bank: BankDownload = {
  bank: { id: 10, title: "Road rules", version: "v1", questionCount: 4 },
  questions: [question(1, "single", 2), question(2, "single", 2), question(3, "judge", 1), question(4, "judge", 1)],
};

function catalog(duration: number): Catalog {
  return {
    classify: [{ id: 10, pid: 0, title: "Road rules", questionCount: 4, version: "v1", children: [] }],
    papers: [{ id: 8, title: "Mock road rules", totalScore: 30, passScore: 18, duration, banks: [10] }],
    rooms: [],
  };
}

/** Paper 8: two fixed questions at 10 points each (their own score is 2) and one judge drawn at 10. */
function paper(duration: number) {
  return {
    paper: { id: 8, title: "Mock road rules", totalScore: 30, passScore: 18, duration, partialCredit: false, shuffleOptions: false },
    rows: [
      { kind: "fixed", questionId: 1, score: 10 },
      { kind: "fixed", questionId: 2, score: 10 },
      { kind: "draw", classifyId: 10, questionType: "judge", difficulty: null, count: 1, score: 10 },
    ],
    banks: [10],
  };
}

function answer(duration: number) {
  api.request.mockImplementation(async (config) => {
    const data = config.url === "/api/exam/catalog" ? catalog(duration) : config.url === "/api/exam/paper" ? paper(duration) : config.url === "/api/exam/bank" ? bank : undefined;
    if (data === undefined) throw new Error("offline");
    return { code: 1, msg: "", time: 0, data };
  });
}

function TakingPage() {
  const [params] = useSearchParams();
  return <p>taking {params.get("attempt")}</p>;
}

function wrap() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={["/exam/examTab/mockTest"]}>
          <Routes>
            <Route path="/exam/examTab/mockTest" element={<MockTestTab />} />
            <Route path="/exam/my_test_detail" element={<TakingPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

async function signIn(memberId: number) {
  useUserInfo.setState({ id: memberId, token: "t" });
  return act(async () => startOffline(memberId));
}

describe("a mock paper's introduction", () => {
  afterEach(() => {
    stopOffline();
    api.request.mockReset();
    localStorage.clear();
  });

  it("shows duration, questions, points and pass score, and starts the attempt only on its Start", async () => {
    const memberId = 4801;
    answer(1800);
    const db = await signIn(memberId);
    wrap();
    const user = userEvent.setup();

    await user.click(await screen.findByRole("button", { name: "Start" }));
    const intro = await screen.findByRole("alertdialog", { name: "Mock road rules" });
    expect(intro).toHaveTextContent("Read the rules of this exam. The time starts when you press Start.");
    const figure = (label: string) => within(intro).getByText(label).nextElementSibling?.textContent;
    expect(figure("Duration")).toBe("30 minutes");
    expect(figure("Questions")).toBe("3");
    expect(figure("Total points")).toBe("30");
    expect(figure("Pass score")).toBe("18");
    // Opening the introduction (and leaving it) starts nothing.
    expect(await db.attempts.count()).toBe(0);
    await user.click(within(intro).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(await db.attempts.count()).toBe(0);
    expect(screen.queryByText(/^taking/)).toBeNull();

    await user.click(screen.getByRole("button", { name: "Start" }));
    const before = Date.now();
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Start" }));
    const taking = await screen.findByText(/^taking /);
    const attempts = await db.attempts.toArray();
    expect(attempts).toHaveLength(1);
    const [attempt] = attempts;
    expect(taking).toHaveTextContent(`taking ${attempt!.attemptId}`);
    // The questions drawn for the introduction, each with the paper's points; the clock runs from Start.
    expect(attempt!.paperId).toBe(8);
    expect(attempt!.questions.map((q) => q.id).slice(0, 2)).toEqual([1, 2]);
    expect([3, 4]).toContain(attempt!.questions[2]!.id);
    expect(attempt!.questions.map((q) => q.score)).toEqual([10, 10, 10]);
    expect(attempt!.startedAt).toBeGreaterThanOrEqual(before);
    expect(attempt!.deadline).toBe(attempt!.startedAt + 1800 * 1000);
    stopOffline();
    await deleteMemberDb(memberId);
  });

  it("says when a paper has no time limit", async () => {
    const memberId = 4802;
    answer(0);
    const db = await signIn(memberId);
    wrap();
    const user = userEvent.setup();
    expect(await screen.findByText("No time limit")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Start" }));
    const intro = await screen.findByRole("alertdialog", { name: "Mock road rules" });
    expect(within(intro).getByText("Duration").nextElementSibling?.textContent).toBe("No time limit");
    expect(await db.attempts.count()).toBe(0);
    await user.click(within(intro).getByRole("button", { name: "Start" }));
    await screen.findByText(/^taking /);
    const [attempt] = await db.attempts.toArray();
    expect(attempt!.deadline).toBeNull();
    stopOffline();
    await deleteMemberDb(memberId);
  });

  it("says why a paper cannot start, with no introduction, when its bank cannot be had", async () => {
    const memberId = 4803;
    api.request.mockImplementation(async (config) => {
      const data = config.url === "/api/exam/catalog" ? catalog(1800) : config.url === "/api/exam/paper" ? paper(1800) : undefined;
      if (data === undefined) throw new Error("offline");
      return { code: 1, msg: "", time: 0, data };
    });
    const db = await signIn(memberId);
    wrap();
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Start" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("These question banks could not be downloaded: Road rules. Try again later.");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(await db.attempts.count()).toBe(0);
    stopOffline();
    await deleteMemberDb(memberId);
  });
});
