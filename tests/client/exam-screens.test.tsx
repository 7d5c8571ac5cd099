import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ExamQuestion, QuestionType } from "../../src/shared/exam/types.ts";
import { deleteMemberDb } from "../../src/client/offline/db.ts";
import { saveBank, setProgress, startOffline, stopOffline, type AttemptRow } from "../../src/client/offline/index.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";
import ExamResultPage, { ResultSummary, givenText, questionOutcome } from "../../src/client/features/exam/ExamResultPage.tsx";
import { optionList } from "../../src/client/features/exam/QuestionView.tsx";
import { attemptTitle, type ExamRecordDetail } from "../../src/shared/exam/catalog.ts";
import { formatTime } from "../../src/shared/time.ts";
import {
  drawQuestions,
  formatRemaining,
  listCachedPapers,
  paperCacheKey,
  parsePaper,
  readCachedPaper,
  writeCachedPaper,
  type PaperDetail,
  type PaperRow,
} from "../../src/client/features/exam/papers.ts";
import TestTakingPage, { completeAnswers, remainingMs } from "../../src/client/features/exam/TestTakingPage.tsx";
import PracticePage from "../../src/client/features/exam/PracticePage.tsx";
import { WrongBookTab } from "../../src/client/features/exam/QuestionListTab.tsx";

// The app's HTTP client, replaced: no network in these tests.
const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; data?: unknown }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

afterEach(() => {
  localStorage.clear();
  // The tab's own memory (a mock exam's position): each test is a new tab.
  sessionStorage.clear();
});

function q(id: number, type: QuestionType, classifyId: number, extra: Partial<ExamQuestion> = {}): ExamQuestion {
  return { id, type, classifyId, stem: `Question ${id}`, options: [], score: 1, difficulty: 1, ...extra };
}

/** A deterministic random source (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const bank10 = [q(1, "single", 10), q(2, "single", 10), q(3, "single", 10), q(4, "multiple", 10), q(5, "judge", 10), q(6, "single", 10)];
const bank20 = [q(21, "judge", 20), q(22, "judge", 20), q(23, "single", 20)];
const banks = new Map<number, ExamQuestion[]>([
  [10, bank10],
  [20, bank20],
]);

describe("drawQuestions", () => {
  it("takes fixed questions from any bank and draws from the row's classify and type, with the row's score", () => {
    const rows: PaperRow[] = [
      { kind: "fixed", questionId: 23, score: 5 },
      { kind: "draw", classifyId: 10, questionType: "single", difficulty: null, count: 2, score: 3 },
      { kind: "draw", classifyId: 20, questionType: "judge", difficulty: null, count: 1, score: 2 },
    ];
    const { questions, missing, missingQuestions } = drawQuestions(rows, banks, seeded(1));
    expect(missing).toEqual([]);
    expect(missingQuestions).toEqual([]);
    expect(questions).toHaveLength(4);
    expect(questions[0]).toMatchObject({ id: 23, score: 5, stem: "Question 23" });
    for (const drawn of questions.slice(1, 3)) {
      expect(drawn.type).toBe("single");
      expect(drawn.classifyId).toBe(10);
      expect(drawn.score).toBe(3);
    }
    expect([21, 22]).toContain(questions[3]!.id);
    expect(questions[3]!.score).toBe(2);
    // The banks' own questions are left alone.
    expect(bank20[2]!.score).toBe(1);
  });

  it("never repeats a question, even when a fixed row names one a draw could pick", () => {
    const rows: PaperRow[] = [
      { kind: "draw", classifyId: 10, questionType: "single", difficulty: null, count: 3, score: 1 },
      { kind: "fixed", questionId: 1, score: 4 },
      { kind: "fixed", questionId: 1, score: 4 },
      { kind: "draw", classifyId: 10, questionType: "single", difficulty: null, count: 3, score: 1 },
    ];
    for (let seed = 0; seed < 200; seed++) {
      const { questions } = drawQuestions(rows, banks, seeded(seed));
      const ids = questions.map((x) => x.id);
      expect(new Set(ids).size).toBe(ids.length);
      // 4 single questions in bank 10: question 1 fixed, the other 3 drawn once in all.
      expect(ids.sort()).toEqual([1, 2, 3, 6]);
      expect(questions.find((x) => x.id === 1)?.score).toBe(4);
    }
  });

  it("draws each matching question with some seed (uniform enough) and takes all when the bank is short", () => {
    const seen = new Set<number>();
    for (let seed = 0; seed < 100; seed++) {
      const { questions } = drawQuestions([{ kind: "draw", classifyId: 10, questionType: "single", difficulty: null, count: 1, score: 1 }], banks, seeded(seed));
      seen.add(questions[0]!.id);
    }
    expect([...seen].sort()).toEqual([1, 2, 3, 6]);
    const all = drawQuestions([{ kind: "draw", classifyId: 20, questionType: "judge", difficulty: null, count: 5, score: 1 }], banks, () => 0.999999);
    expect(all.questions.map((x) => x.id).sort()).toEqual([21, 22]);
  });

  it("copes with a random source that returns 1", () => {
    const { questions } = drawQuestions([{ kind: "draw", classifyId: 10, questionType: "single", difficulty: null, count: 4, score: 1 }], banks, () => 1);
    expect(questions.map((x) => x.id).sort()).toEqual([1, 2, 3, 6]);
  });

  it("reports the classify ids not on the device and fixed questions found nowhere", () => {
    const rows: PaperRow[] = [
      { kind: "draw", classifyId: 99, questionType: "single", difficulty: null, count: 2, score: 1 },
      { kind: "draw", classifyId: 99, questionType: "judge", difficulty: null, count: 1, score: 1 },
      { kind: "fixed", questionId: 777, score: 1 },
      { kind: "draw", classifyId: 20, questionType: "single", difficulty: null, count: 1, score: 1 },
    ];
    const { questions, missing, missingQuestions } = drawQuestions(rows, banks, seeded(3));
    expect(missing).toEqual([99]);
    expect(missingQuestions).toEqual([777]);
    expect(questions.map((x) => x.id)).toEqual([23]);
  });
});

describe("drawQuestions with a difficulty", () => {
  // Bank 30: singles of difficulty 1, 3, 3, 5, 3 and a judge of difficulty 3.
  const bank30 = [q(31, "single", 30), q(32, "single", 30, { difficulty: 3 }), q(33, "single", 30, { difficulty: 3 }), q(34, "single", 30, { difficulty: 5 }), q(35, "single", 30, { difficulty: 3 }), q(36, "judge", 30, { difficulty: 3 })];
  const byBank = new Map<number, ExamQuestion[]>([[30, bank30]]);

  it("draws only questions of the rule's type and difficulty, each of them with some seed", () => {
    const seen = new Set<number>();
    for (let seed = 0; seed < 200; seed++) {
      const { questions } = drawQuestions([{ kind: "draw", classifyId: 30, questionType: "single", difficulty: 3, count: 2, score: 4 }], byBank, seeded(seed));
      expect(questions).toHaveLength(2);
      for (const drawn of questions) {
        expect(drawn).toMatchObject({ type: "single", difficulty: 3, score: 4 });
        seen.add(drawn.id);
      }
    }
    expect([...seen].sort()).toEqual([32, 33, 35]);
  });

  it("takes every question of that difficulty when the bank is short, none when it has none, and any difficulty for null", () => {
    const short = drawQuestions([{ kind: "draw", classifyId: 30, questionType: "single", difficulty: 3, count: 5, score: 1 }], byBank, seeded(1));
    expect(short.questions.map((x) => x.id).sort()).toEqual([32, 33, 35]);
    const none = drawQuestions([{ kind: "draw", classifyId: 30, questionType: "single", difficulty: 2, count: 1, score: 1 }], byBank, seeded(1));
    expect(none.questions).toEqual([]);
    expect(none.missing).toEqual([]);
    const any = drawQuestions([{ kind: "draw", classifyId: 30, questionType: "single", difficulty: null, count: 5, score: 1 }], byBank, seeded(1));
    expect(any.questions.map((x) => x.id).sort()).toEqual([31, 32, 33, 34, 35]);
  });

  it("reads the rule's difficulty from the wire, a paper without one (an older server or cached copy) drawing any", () => {
    const wire = (rows: unknown[]) => ({ paper: { id: 3, title: "Hard singles", totalScore: 8, passScore: 4 }, rows, banks: [30] });
    const withDifficulty = parsePaper(wire([{ kind: "draw", classifyId: 30, questionType: "single", difficulty: 5, count: 1, score: 8 }]));
    expect(withDifficulty?.rows).toEqual([{ kind: "draw", classifyId: 30, questionType: "single", difficulty: 5, count: 1, score: 8 }]);
    expect(drawQuestions(withDifficulty!.rows, byBank, seeded(2)).questions.map((x) => x.id)).toEqual([34]);
    const old = parsePaper(wire([{ kind: "draw", classifyId: 30, questionType: "single", count: 1, score: 8 }]));
    expect(old?.rows[0]).toMatchObject({ kind: "draw", difficulty: null });
    expect(parsePaper(wire([{ kind: "draw", classifyId: 30, questionType: "single", difficulty: null, count: 1, score: 8 }]))?.rows[0]).toMatchObject({ difficulty: null });
    expect(parsePaper(wire([{ kind: "draw", classifyId: 30, questionType: "single", difficulty: 6, count: 1, score: 8 }]))).toBeNull();
    // A copy cached before draw rules had a difficulty still opens offline.
    localStorage.setItem(paperCacheKey(3), JSON.stringify(wire([{ kind: "draw", classifyId: 30, questionType: "judge", count: 1, score: 8 }])));
    expect(readCachedPaper(3)?.rows[0]).toMatchObject({ questionType: "judge", difficulty: null });
  });
});

describe("paper cache", () => {
  const detail: PaperDetail = {
    paper: { id: 7, title: "Road rules", totalScore: 100, passScore: 60, duration: 1800, partialCredit: false, shuffleOptions: false },
    rows: [{ kind: "draw", classifyId: 10, questionType: "single", difficulty: null, count: 2, score: 50 }],
    banks: [10],
  };

  it("stores the last fetched paper under examhub.paper.<id> and reads it back", () => {
    writeCachedPaper(detail);
    expect(localStorage.getItem(paperCacheKey(7))).not.toBeNull();
    expect(paperCacheKey(7)).toBe("examhub.paper.7");
    expect(readCachedPaper(7)).toEqual(detail);
    expect(listCachedPapers().map((d) => d.paper.id)).toEqual([7]);
  });

  it("ignores anything that is not a paper", () => {
    localStorage.setItem(paperCacheKey(8), "{not json");
    localStorage.setItem(paperCacheKey(9), JSON.stringify({ paper: { id: 9 } }));
    expect(readCachedPaper(8)).toBeNull();
    expect(readCachedPaper(9)).toBeNull();
    expect(readCachedPaper(10)).toBeNull();
    expect(parsePaper({ ...detail, rows: [{ kind: "draw", classifyId: 1, questionType: "essay", count: 1, score: 1 }] })).toBeNull();
  });
});

describe("the timer", () => {
  it("formats the time left from a deadline, never negative", () => {
    const deadline = 1_700_000_000_000;
    expect(formatRemaining(remainingMs(deadline, deadline - 90 * 60_000)!)).toBe("1:30:00");
    expect(formatRemaining(remainingMs(deadline, deadline - 59 * 60_000 - 59_000)!)).toBe("59:59");
    expect(formatRemaining(remainingMs(deadline, deadline - 1)!)).toBe("00:01");
    expect(formatRemaining(remainingMs(deadline, deadline)!)).toBe("00:00");
    expect(remainingMs(deadline, deadline + 5_000)).toBe(0);
    expect(remainingMs(null, deadline)).toBeNull();
    expect(formatRemaining(-1)).toBe("00:00");
    expect(formatRemaining(Number.NaN)).toBe("00:00");
    expect(formatRemaining(10 * 3600_000 + 5_000)).toBe("10:00:05");
  });

  it("submits every question, unanswered ones empty", () => {
    const questions = [q(1, "single", 1), q(2, "multiple", 1), q(3, "fill", 1, { stem: "__ and __" })];
    expect(completeAnswers(questions, { "1": "B" })).toEqual({ "1": "B", "2": [], "3": ["", ""] });
  });
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

describe("ResultSummary", () => {
  it("says passed with an icon and words, and the score out of the total", () => {
    wrap(<ResultSummary title="Road rules" score={72.5} totalScore={100} passScore={60} passed submittedAt={null} />, "/");
    expect(screen.getByRole("heading", { name: "Road rules" })).toBeInTheDocument();
    expect(screen.getByTestId("result-score")).toHaveTextContent("72.5 / 100");
    const status = screen.getByRole("status");
    expect(status).toHaveTextContent("Passed (pass mark 60)");
    expect(status.querySelector("svg")).not.toBeNull();
  });

  it("says not passed, and when the pass mark is unknown says so", () => {
    const { unmount } = wrap(<ResultSummary title={null} score={10} totalScore={100} passScore={60} passed={false} submittedAt={null} waitingToSync />, "/");
    expect(screen.getByRole("status")).toHaveTextContent("Not passed (pass mark 60)");
    expect(screen.getByText(/waiting to sync/)).toBeInTheDocument();
    unmount();
    wrap(<ResultSummary title={null} score={10} totalScore={100} passScore={null} passed={null} submittedAt={null} />, "/");
    expect(screen.getByRole("status")).toHaveTextContent("The pass mark is not on this device yet.");
  });

  it("writes given answers as text", () => {
    const labels = { true: "True", false: "False", list: optionList("en") };
    expect(givenText(q(1, "judge", 1), "T", labels)).toBe("True");
    expect(givenText(q(1, "multiple", 1), ["A", "C"], labels)).toBe("A, C");
    expect(givenText(q(1, "multiple", 1), ["A", "B", "D"], { ...labels, list: optionList("zh-cn") })).toBe("A、B、D");
    expect(givenText(q(1, "fill", 1), ["1949", "Beijing"], labels)).toBe("1949; Beijing");
    expect(givenText(q(1, "single", 1), "", labels)).toBe("");
  });
});

describe("a result's questions and names", () => {
  it("calls an unanswered question unanswered, never wrong, whatever the grade says", () => {
    const single = q(1, "single", 1, { options: [{ key: "A", text: "a" }, { key: "B", text: "b" }] });
    const multiple = q(2, "multiple", 1);
    const fill = q(3, "fill", 1);
    const wrong = { correct: false, score: 0 };
    expect(questionOutcome(single, undefined, wrong)).toBe("unanswered");
    expect(questionOutcome(single, "", wrong)).toBe("unanswered");
    expect(questionOutcome(multiple, [], wrong)).toBe("unanswered");
    expect(questionOutcome(fill, ["", " "], wrong)).toBe("unanswered");
    expect(questionOutcome(single, "B", wrong)).toBe("wrong");
    expect(questionOutcome(single, "A", { correct: true, score: 1 })).toBe("correct");
    expect(questionOutcome(fill, ["x"], { correct: null, score: 0 })).toBe("review");
    // An exam that keeps its results: answered, but right or wrong is not shown.
    expect(questionOutcome(single, "A", undefined)).toBe("hidden");
  });

  it("names an official attempt by its room, a mock one (or one whose room is gone) by its paper", () => {
    expect(attemptTitle({ kind: "official", paperTitle: "Paper", roomTitle: "Spring finals" })).toBe("Spring finals");
    expect(attemptTitle({ kind: "official", paperTitle: "Paper", roomTitle: null })).toBe("Paper");
    expect(attemptTitle({ kind: "mock", paperTitle: "Paper", roomTitle: "Spring finals" })).toBe("Paper");
  });
});

describe("ExamResultPage", () => {
  afterEach(() => {
    stopOffline();
    api.request.mockReset();
  });

  it("shows a local attempt's result offline: score, pass or fail, and the review", async () => {
    const memberId = 4242;
    useUserInfo.setState({ id: memberId, token: "t" });
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/state") return { code: 1, msg: "", time: 0, data: { favourites: [], wrong: [], progress: [] } };
      throw new Error("offline");
    });
    writeCachedPaper({
      paper: { id: 7, title: "Road rules", totalScore: 10, passScore: 6, duration: 600, partialCredit: false, shuffleOptions: false },
      rows: [],
      banks: [1],
    });
    const questions: ExamQuestion[] = [
      q(1, "single", 1, { score: 5, options: [{ key: "A", text: "Stop" }, { key: "B", text: "Go" }], answer: "A", analysis: "Red means stop." }),
      q(2, "judge", 1, { score: 5, answer: "T" }),
    ];
    const attempt: AttemptRow = {
      attemptId: "11111111-1111-4111-8111-111111111111",
      paperId: 7,
      questions,
      answers: { "1": "B", "2": "T" },
      startedAt: Date.UTC(2024, 4, 1, 8),
      deadline: Date.UTC(2024, 4, 1, 8, 10),
      submittedAt: Date.UTC(2024, 4, 1, 8, 5),
      score: 5,
      results: { "1": { correct: false, score: 0 }, "2": { correct: true, score: 5 } },
      status: "submitted",
    };
    const db = await act(async () => startOffline(memberId));
    await db.attempts.add(attempt);

    wrap(<ExamResultPage />, `/exam/examResult?attempt=${attempt.attemptId}`);
    expect(await screen.findByRole("heading", { name: "Road rules" })).toBeInTheDocument();
    expect(screen.getByTestId("result-score")).toHaveTextContent("5 / 10");
    expect(screen.getAllByRole("status").some((el) => el.textContent?.includes("Not passed (pass mark 6)"))).toBe(true);

    const review = screen.getByRole("region", { name: "Review" });
    const items = within(review).getAllByRole("listitem").filter((li) => li.parentElement?.tagName === "OL");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("Your answer: B");
    expect(items[0]).toHaveTextContent("Wrong");
    expect(items[0]).toHaveTextContent("Answer: A");
    expect(items[0]).toHaveTextContent("Analysis: Red means stop.");
    expect(items[1]).toHaveTextContent("Your answer: True");
    expect(items[1]).toHaveTextContent("Correct");
    // The history of this paper's local attempts (its table is there for screen readers).
    expect(await screen.findByRole("table", { name: "Your scores on this paper" })).toBeInTheDocument();

    stopOffline();
    await deleteMemberDb(memberId);
  });
});

describe("ExamResultPage of an official attempt", () => {
  afterEach(() => api.request.mockReset());

  function serveRecord(answersShownAt: number | null) {
    const record: ExamRecordDetail = {
      attempt: {
        uuid: "22222222-2222-4222-8222-222222222222",
        kind: "official",
        paperId: 9,
        paperTitle: "Paper",
        roomTitle: "Autumn exam",
        score: 2,
        passed: false,
        startedAt: 1_900_000_000,
        submittedAt: 1_900_000_300,
        status: "submitted",
        totalScore: 4,
        passScore: 3,
        pendingReview: 0,
        deadline: null,
        answersShownAt,
      },
      // The room keeps its answers and analysis: the questions come without them, and no results.
      questions: [q(1, "judge", 1, { score: 2 }), q(2, "judge", 1, { score: 2 })],
      answers: { "1": "T", "2": "F" },
      results: {},
    };
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/record") return { code: 1, msg: "", time: 0, data: record };
      throw new Error("offline");
    });
  }

  it("says when the answers show: once the room has closed", async () => {
    const closes = Date.UTC(2030, 2, 1, 4, 30) / 1000;
    serveRecord(closes);
    wrap(<ExamResultPage />, "/exam/examResult?uuid=22222222-2222-4222-8222-222222222222");
    const review = await screen.findByRole("region", { name: "Review" });
    expect(review).toHaveTextContent(`The answers and analysis show here once the exam room has closed (${formatTime(closes, "YYYY-MM-DD HH:mm")}).`);
    expect(review).not.toHaveTextContent("This exam does not show which answers were right.");
  });

  it("says the exam never shows them when its room does not", async () => {
    serveRecord(null);
    wrap(<ExamResultPage />, "/exam/examResult?uuid=22222222-2222-4222-8222-222222222222");
    const review = await screen.findByRole("region", { name: "Review" });
    expect(review).toHaveTextContent("This exam does not show which answers were right.");
  });
});

describe("TestTakingPage", () => {
  afterEach(() => {
    stopOffline();
    api.request.mockReset();
  });

  async function setUp(memberId: number, deadline: number | null) {
    useUserInfo.setState({ id: memberId, token: "t" });
    api.request.mockImplementation(async () => {
      throw new Error("offline");
    });
    const db = await act(async () => startOffline(memberId));
    const attempt: AttemptRow = {
      attemptId: "22222222-2222-4222-8222-222222222222",
      paperId: 7,
      questions: [
        q(1, "single", 1, { score: 5, options: [{ key: "A", text: "Stop" }, { key: "B", text: "Go" }], answer: "A" }),
        q(2, "judge", 1, { score: 3, answer: "T" }),
      ],
      answers: {},
      startedAt: Date.now() - 1000,
      deadline,
      submittedAt: null,
      score: null,
      results: null,
      status: "in_progress",
    };
    await db.attempts.add(attempt);
    const view = wrap(
      <Routes>
        <Route path="/exam/my_test_detail" element={<TestTakingPage />} />
        <Route path="/exam/examResult" element={<p>result page</p>} />
      </Routes>,
      `/exam/my_test_detail?attempt=${attempt.attemptId}`,
    );
    return { db, attempt, view };
  }

  it("autosaves answers and submits after confirming unanswered questions", async () => {
    const memberId = 4243;
    const { db, attempt } = await setUp(memberId, Date.now() + 30 * 60_000);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("radio", { name: /Stop/ }));
    await vi.waitFor(async () => expect((await db.attempts.get(attempt.attemptId))?.answers).toEqual({ "1": "A" }));
    expect(screen.getByRole("timer")).toHaveTextContent(/^(30:00|29:5\d)$/);

    await user.click(screen.getByRole("button", { name: "Submit" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("1 question is not answered.");
    await user.click(within(dialog).getByRole("button", { name: "Submit anyway" }));
    expect(await screen.findByText("result page")).toBeInTheDocument();

    const stored = await db.attempts.get(attempt.attemptId);
    expect(stored).toMatchObject({ status: "submitted", score: 5, answers: { "1": "A", "2": "" } });
    const ops = await db.outbox.toArray();
    expect(ops.map((o) => o.type)).toEqual(["attempt.submit"]);
    stopOffline();
    await deleteMemberDb(memberId);
  });

  it("shows the points the paper gives each question in the question's header", async () => {
    const memberId = 4245;
    await setUp(memberId, Date.now() + 30 * 60_000);
    const user = userEvent.setup();
    const first = await screen.findByRole("region", { name: "Question 1 of 2" });
    expect(within(first).getByText("5 points")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Next question" }));
    const second = await screen.findByRole("region", { name: "Question 2 of 2" });
    expect(within(second).getByText("3 points")).toBeInTheDocument();
    expect(within(second).queryByText("5 points")).toBeNull();
    stopOffline();
    await deleteMemberDb(memberId);
  });

  it("opens again at the question the member was on, and asks before submitting even with every question answered", async () => {
    const memberId = 4246;
    const { db, attempt, view } = await setUp(memberId, Date.now() + 30 * 60_000);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("radio", { name: /Stop/ }));
    await user.click(screen.getByRole("button", { name: "Next question" }));
    expect(await screen.findByRole("region", { name: "Question 2 of 2" })).toBeInTheDocument();
    await vi.waitFor(async () => expect((await db.attempts.get(attempt.attemptId))?.position).toBe(1));

    // A reload (the page mounted afresh) opens question 2, with the first answer kept, even when
    // it came before the device's database took the position (the tab kept it too).
    await db.attempts.update(attempt.attemptId, { position: 0 });
    view.unmount();
    wrap(
      <Routes>
        <Route path="/exam/my_test_detail" element={<TestTakingPage />} />
        <Route path="/exam/examResult" element={<p>result page</p>} />
      </Routes>,
      `/exam/my_test_detail?attempt=${attempt.attemptId}`,
    );
    expect(await screen.findByRole("region", { name: "Question 2 of 2" })).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "True" }));

    // Every question answered: "submit" still asks first, and "keep answering" keeps the exam open.
    await user.click(screen.getByRole("button", { name: "Submit" }));
    let dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent("Every question is answered.");
    await user.click(within(dialog).getByRole("button", { name: "Keep answering" }));
    expect((await db.attempts.get(attempt.attemptId))?.status).toBe("in_progress");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    dialog = await screen.findByRole("alertdialog");
    await user.click(within(dialog).getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("result page")).toBeInTheDocument();
    expect(await db.attempts.get(attempt.attemptId)).toMatchObject({ status: "submitted", score: 8 });
    stopOffline();
    await deleteMemberDb(memberId);
  });

  it("submits by itself once the deadline has passed", async () => {
    const memberId = 4244;
    const { db, attempt } = await setUp(memberId, Date.now() - 1);
    expect(await screen.findByText("result page")).toBeInTheDocument();
    expect((await db.attempts.get(attempt.attemptId))?.status).toBe("submitted");
    stopOffline();
    await deleteMemberDb(memberId);
  });
});

describe("PracticePage", () => {
  afterEach(() => {
    stopOffline();
    api.request.mockReset();
    useUserInfo.setState({ id: 0, token: "" });
  });

  it("shows a signed-in member a spinner while their database opens, and only a visitor the way to log in", async () => {
    useUserInfo.setState({ id: 4343, token: "t" });
    const { unmount } = wrap(<PracticePage />, "/exam/myPractice?bank=2");
    // MemberSync opens the database a moment after the first screen: no "log in" to a member in between.
    expect(screen.queryByRole("link", { name: "Log in" })).not.toBeInTheDocument();
    expect(screen.queryByText(/Please log in to practise/)).not.toBeInTheDocument();
    unmount();
    useUserInfo.setState({ id: 0, token: "" });
    wrap(<PracticePage />, "/exam/myPractice?bank=2");
    expect(screen.getByText(/Please log in to practise/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Log in" })).toHaveAttribute("href", "/");
  });

  it("opens a downloaded bank at its first question, and says so when the server's bank has no questions", async () => {
    const memberId = 4344;
    useUserInfo.setState({ id: memberId, token: "t" });
    const questions = [q(1, "single", 2, { stem: "First of the bank", options: [{ key: "A", text: "Yes" }, { key: "B", text: "No" }], answer: "A" }), q(2, "judge", 2, { answer: "T" })];
    const served = new Map<number, ExamQuestion[]>([
      [2, questions],
      [3, []],
    ]);
    api.request.mockImplementation(async (config) => {
      const id = Number((config as { params?: { id?: number } }).params?.id);
      if (config.url === "/api/exam/bank") return { code: 1, msg: "", time: 0, data: { bank: { id, title: `Bank ${id}`, version: "v1" }, questions: served.get(id) } };
      if (config.url === "/api/exam/state") return { code: 1, msg: "", time: 0, data: { favourites: [], wrong: [], progress: [] } };
      throw new Error("offline");
    });
    await act(async () => startOffline(memberId));
    const { unmount } = wrap(<PracticePage />, "/exam/myPractice?bank=2");
    expect(await screen.findByText("First of the bank")).toBeInTheDocument();
    expect(screen.getByText("Question 1 of 2")).toBeInTheDocument();
    expect(screen.queryByText(/has no questions yet/)).not.toBeInTheDocument();
    unmount();
    wrap(<PracticePage />, "/exam/myPractice?bank=3");
    expect(await screen.findByText("This question bank has no questions yet.")).toBeInTheDocument();
    stopOffline();
    await deleteMemberDb(memberId);
  });

  it("marks a wrong choice red and the right one green, shows an answered question as answered on the way back, and answers it again on request", async () => {
    const memberId = 4345;
    useUserInfo.setState({ id: memberId, token: "t" });
    const options = [{ key: "A", text: "Paris" }, { key: "B", text: "Lyon" }, { key: "C", text: "Nice" }];
    const questions = [
      q(1, "single", 2, { stem: "Capital of France?", options, answer: "A" }),
      q(2, "multiple", 2, { stem: "Cities on the sea?", options, answer: ["A", "C"] }),
      q(3, "fill", 2, { stem: "__ and __", answer: ["one|1", "two"] }),
    ];
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/bank") return { code: 1, msg: "", time: 0, data: { bank: { id: 2, title: "Bank 2", version: "v1" }, questions } };
      if (config.url === "/api/exam/state") return { code: 1, msg: "", time: 0, data: { favourites: [], wrong: [], progress: [] } };
      throw new Error("offline");
    });
    await act(async () => startOffline(memberId));
    const user = userEvent.setup();
    const { unmount } = wrap(<PracticePage />, "/exam/myPractice?bank=2");

    // The question says its type; a wrong choice is marked wrong, the right one right.
    expect(await screen.findByText("Capital of France?")).toBeInTheDocument();
    expect(screen.getByRole("group")).toHaveTextContent(/^Single choice/);
    await user.click(screen.getByRole("radio", { name: /Lyon/ }));
    await user.click(screen.getByRole("button", { name: "Submit answer" }));
    expect(await screen.findByRole("img", { name: "Your choice, wrong" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "The right answer" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: /Lyon/ }).closest("label")).toHaveClass("border-red-500");
    expect(screen.getByRole("radio", { name: /Paris/ }).closest("label")).toHaveClass("border-emerald-500");
    expect(screen.getByRole("radio", { name: /Nice/ }).closest("label")).not.toHaveClass("border-emerald-500", "border-red-500");

    // Multiple choice: the answer key reads as a list; a missed right option is green, the chosen right one says so.
    await user.click(screen.getByRole("button", { name: "Next question" }));
    expect(await screen.findByText("Cities on the sea?")).toBeInTheDocument();
    expect(screen.getByRole("group")).toHaveTextContent(/^Multiple choice/);
    await user.click(screen.getByRole("checkbox", { name: /Paris/ }));
    await user.click(screen.getByRole("button", { name: "Submit answer" }));
    expect(await screen.findByText("Wrong")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Your choice, right" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "The right answer" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Answer: A, C");

    // Fill-in: each blank right or wrong, by the grader's rules (alternatives, case, spaces).
    await user.click(screen.getByRole("button", { name: "Next question" }));
    await user.type(await screen.findByRole("textbox", { name: /Blank 1/ }), " ONE ");
    await user.type(screen.getByRole("textbox", { name: /Blank 2/ }), "three");
    await user.click(screen.getByRole("button", { name: "Submit answer" }));
    expect(await screen.findByRole("img", { name: "Right" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: /Blank 2/ })).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByRole("textbox", { name: /Blank 1/ })).not.toHaveAttribute("aria-invalid");

    // Back to the first question: the answer given, its grading and the marks, not a blank question.
    await user.click(screen.getByRole("button", { name: "Previous" }));
    await user.click(screen.getByRole("button", { name: "Previous" }));
    expect(await screen.findByText("Capital of France?")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: /Lyon/ })).toBeChecked();
    expect(screen.getByRole("radio", { name: /Lyon/ })).toBeDisabled();
    expect(screen.getByRole("status")).toHaveTextContent("Wrong");
    expect(screen.getByRole("img", { name: "Your choice, wrong" })).toBeInTheDocument();

    // Answer again: a blank question to answer, graded anew.
    await user.click(screen.getByRole("button", { name: "Answer again" }));
    expect(screen.getByRole("radio", { name: /Lyon/ })).not.toBeChecked();
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: /Paris/ }));
    await user.click(screen.getByRole("button", { name: "Submit answer" }));
    expect(await screen.findByText("Correct")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Your choice, right" })).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: "Your choice, wrong" })).not.toBeInTheDocument();

    // The wrong book's "show the answer" says "hide" while it is open.
    unmount();
    wrap(<WrongBookTab />, "/exam/examTab/topicWrong?id=2");
    const show = (await screen.findAllByText("Show the answer"))[0]!;
    await user.click(show);
    expect(show).toHaveTextContent("Hide the answer");
    await user.click(show);
    expect(show).toHaveTextContent("Show the answer");
    stopOffline();
    await deleteMemberDb(memberId);
  });

  it("opens a bank of hundreds at the saved question, reading only the questions near it, and pages the grid by the hundred", async () => {
    const memberId = 4346;
    useUserInfo.setState({ id: memberId, token: "t" });
    const options = [{ key: "A", text: "Yes" }, { key: "B", text: "No" }];
    const questions = Array.from({ length: 250 }, (_, i) => q(5_000 + i, "single", 2, { stem: `Stem ${i + 1}`, options, answer: "A" }));
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/bank") return { code: 1, msg: "", time: 0, data: { bank: { id: 2, title: "Big", version: "v1" }, questions } };
      if (config.url === "/api/exam/state") return { code: 1, msg: "", time: 0, data: { favourites: [], wrong: [], progress: [] } };
      throw new Error("offline");
    });
    const db = await act(async () => startOffline(memberId));
    await saveBank(db, { id: 2, classifyId: 2, title: "Big", version: "v1" }, questions);
    await setProgress(db, 2, 119);
    const read = vi.spyOn(db.questions, "bulkGet");
    const user = userEvent.setup();
    wrap(<PracticePage />, "/exam/myPractice?bank=2");

    // The saved position's question, read with its window of neighbours (not the 250).
    expect(await screen.findByText("Stem 120")).toBeInTheDocument();
    expect(screen.getByText("Question 120 of 250")).toBeInTheDocument();
    expect(Math.max(...read.mock.calls.map(([keys]) => keys.length))).toBeLessThanOrEqual(22);
    // The grid shows the hundred around it.
    expect(screen.getByText("Questions 101–200 of 250")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Question 120, not answered" })).toHaveAttribute("aria-current", "step");
    expect(screen.queryByRole("button", { name: "Question 201, not answered" })).not.toBeInTheDocument();

    // Past the window's end and back: each question shown in turn.
    await user.click(screen.getByRole("button", { name: "Skip" }));
    expect(await screen.findByText("Stem 121")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Previous" }));
    await user.click(screen.getByRole("button", { name: "Previous" }));
    expect(await screen.findByText("Stem 119")).toBeInTheDocument();

    // The next hundred of the grid, and a jump there.
    await user.click(screen.getByRole("button", { name: "Next 100 questions" }));
    expect(screen.getByText("Questions 201–250 of 250")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Next 100 questions" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Question 230, not answered" }));
    expect(await screen.findByText("Stem 230")).toBeInTheDocument();
    expect(screen.getByText("Question 230 of 250")).toBeInTheDocument();
    expect(screen.getByText("Questions 201–250 of 250")).toBeInTheDocument();
    stopOffline();
    await deleteMemberDb(memberId);
  });
});
