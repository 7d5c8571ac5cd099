import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import { deleteMemberDb, openMemberDb, type MemberDb, type OutboxRow } from "../../src/client/offline/db.ts";
import { getOfflineDb, startOffline, stopOffline } from "../../src/client/offline/index.ts";
import { answerPractice, localBankTitle, pendingActions, pendingChangeCount, recordLessonProgress, rememberBankTitle, removeWrong, saveBank, setFavourite, setProgress, summarisePending } from "../../src/client/offline/repository/index.ts";
import { languageCacheKey } from "../../src/client/pwa/caches.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";
import PracticePage from "../../src/client/features/exam/PracticePage.tsx";
import { WrongBookTab } from "../../src/client/features/exam/QuestionListTab.tsx";

const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; params?: unknown; data?: unknown }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

const opened: MemberDb[] = [];
afterEach(async () => {
  stopOffline();
  for (const db of opened.splice(0)) {
    db.close();
    await deleteMemberDb(db.memberId);
  }
});

let nextMember = 9100;
function freshDb(): MemberDb {
  const db = openMemberDb(++nextMember);
  opened.push(db);
  return db;
}

const options = [
  { key: "A", text: "Yes" },
  { key: "B", text: "No" },
];
function q(id: number, classifyId: number): ExamQuestion {
  return { id, type: "single", classifyId, stem: `Question ${id}`, options, answer: "A", score: 1, difficulty: 1 };
}

function wrap(ui: ReactNode, path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/exam/examTab/errorTopic" element={ui} />
            <Route path="/exam/myPractice" element={<PracticePage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe("practising the wrong-question book of a bank", () => {
  it("lists only the bank's wrong questions and practises exactly those, taking the ones answered right out of the book", async () => {
    const memberId = 9001;
    useUserInfo.setState({ id: memberId, token: "t" });
    const maths = [q(1, 2), q(2, 2), q(3, 2), q(4, 2)];
    const other = [q(31, 3)];
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/bank") return { code: 1, msg: "", time: 0, data: { bank: { id: 2, title: "Maths", version: "v1" }, questions: maths } };
      if (config.url === "/api/exam/state") return { code: 1, msg: "", time: 0, data: { favourites: [], wrong: [], progress: [] } };
      throw new Error("offline");
    });
    await act(async () => startOffline(memberId));
    const db = getOfflineDb()!;
    await saveBank(db, { id: 2, classifyId: 2, title: "Maths", version: "v1" }, maths);
    await saveBank(db, { id: 3, classifyId: 3, title: "Words", version: "v1" }, other);
    // Wrong: questions 2 and 4 of maths, and one of another bank.
    for (const [bankId, question] of [[2, maths[1]!], [2, maths[3]!], [3, other[0]!]] as const) await answerPractice(db, { bankId, question, answer: "B" });
    await setProgress(db, 2, 1);

    const user = userEvent.setup();
    wrap(<WrongBookTab />, "/exam/examTab/errorTopic?id=2");
    expect(await screen.findByText("Question 2")).toBeInTheDocument();
    expect(screen.getByText("Question 4")).toBeInTheDocument();
    expect(screen.queryByText("Question 31")).not.toBeInTheDocument();

    await user.click(screen.getByRole("link", { name: "Practise my 2 wrong questions" }));
    expect(await screen.findByText("Question 1 of 2")).toBeInTheDocument();
    expect(screen.getByText("Question 2", { selector: "*:not(li *)" })).toBeInTheDocument();
    // Right: out of the book, but still in this session.
    await user.click(screen.getByRole("radio", { name: /Yes/ }));
    await user.click(screen.getByRole("button", { name: "Submit answer" }));
    expect(await screen.findByText("Correct")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Next question" }));
    expect(await screen.findByText("Question 2 of 2")).toBeInTheDocument();
    // The last answer on the device was wrong; the set asks it anew.
    expect(screen.getByRole("radio", { name: /No/ })).not.toBeChecked();
    await user.click(screen.getByRole("radio", { name: /No/ }));
    await user.click(screen.getByRole("button", { name: "Submit answer" }));
    expect(await screen.findByText("Wrong")).toBeInTheDocument();
    expect(screen.getByText(/1 of 2 right/)).toBeInTheDocument();

    const wrong = await db.wrong.toArray();
    expect(wrong.filter((w) => !w.removed).map((w) => [w.questionId, w.count])).toEqual([
      [4, 2],
      [31, 1],
    ]);
    // The bank's place in sequential practice is left where it was.
    expect((await db.progress.get(2))?.position).toBe(1);
    const ops = await db.outbox.orderBy("seq").toArray();
    expect(ops.slice(-3).map((o) => o.type)).toEqual(["practice.answer", "wrong.remove", "practice.answer"]);
    const grid = screen.getByRole("navigation", { name: /question/i });
    expect(within(grid).getAllByRole("button")).toHaveLength(2);
    await deleteMemberDb(memberId);
  });
});

describe("the pending-sync count", () => {
  it("counts what the member did: an answer once (not its position records nor the wrong book's removal it made), a favourite toggled once, a lesson once", () => {
    const row = (id: string, type: OutboxRow["type"], payload: object, at: number) => ({ id, type, payload, at, status: "pending", tries: 0 }) as OutboxRow;
    const rows = [
      row("a1", "practice.answer", { questionId: 1, answer: "A", bankId: 2 }, 10),
      row("p1", "progress.set", { bankId: 2, position: 1 }, 10),
      row("p2", "progress.set", { bankId: 2, position: 1 }, 11),
      row("a2", "practice.answer", { questionId: 2, answer: "A", bankId: 2 }, 12),
      row("f1", "favourite.set", { questionId: 2, on: true }, 13),
      row("f2", "favourite.set", { questionId: 2, on: false }, 14),
      row("l1", "lesson.progress", { lessonId: 5, position: 10 }, 15),
      row("l2", "lesson.progress", { lessonId: 5, position: 20 }, 16),
      // Answered right in the wrong book's practice: the removal comes with the answer ...
      row("a3", "practice.answer", { questionId: 3, answer: "A", bankId: 2 }, 17),
      row("r3", "wrong.remove", { questionId: 3 }, 17),
      // ... a removal by hand is a change of its own.
      row("r4", "wrong.remove", { questionId: 4 }, 18),
    ];
    expect(summarisePending(rows)).toEqual({
      total: 6,
      actions: [
        { kind: "wrong.remove", count: 1, at: 18 },
        { kind: "practice.answer", count: 3, at: 17 },
        { kind: "lesson.progress", count: 1, at: 16 },
        { kind: "favourite.set", count: 1, at: 14 },
      ],
    });
  });

  it("the header's count from the outbox's indexes is the panel's total, for the same queue", async () => {
    const db = freshDb();
    const row = (id: string, type: OutboxRow["type"], payload: object, at: number, status: OutboxRow["status"] = "pending") =>
      ({ id, type, payload, at, status, tries: 0 }) as OutboxRow;
    await db.outbox.bulkAdd([
      row("a1", "practice.answer", { questionId: 1, answer: "A", bankId: 2 }, 10),
      row("p1", "progress.set", { bankId: 2, position: 1 }, 10),
      row("f1", "favourite.set", { questionId: 2, on: true }, 13),
      row("f2", "favourite.set", { questionId: 2, on: false }, 14),
      row("x1", "practice.answer", { questionId: 9, answer: "A", bankId: 2 }, 15, "rejected"),
      row("l1", "lesson.progress", { lessonId: 5, position: 10 }, 15),
      row("l2", "lesson.progress", { lessonId: 5, position: 20 }, 16),
      row("a3", "practice.answer", { questionId: 3, answer: "A", bankId: 2 }, 17),
      row("r3", "wrong.remove", { questionId: 3 }, 17),
      row("r4", "wrong.remove", { questionId: 4 }, 18),
    ]);
    expect(await pendingChangeCount(db)).toBe(5);
    expect((await pendingActions(db)).total).toBe(5);

    // Made through the repository: answers in order and in the wrong book's set (a right one
    // removes the question with the answer), a removal by hand, favourites, a lesson played on.
    const other = freshDb();
    const bank = [q(1, 2), q(2, 2), q(3, 2)];
    await saveBank(other, { id: 2, classifyId: 2, title: "Maths", version: "v1" }, bank);
    for (const question of bank) await answerPractice(other, { bankId: 2, question, answer: "B" });
    await answerPractice(other, { bankId: 2, question: bank[0]!, answer: "A", set: "wrong" });
    await answerPractice(other, { bankId: 2, question: bank[1]!, answer: "B", set: "wrong" });
    await removeWrong(other, 3);
    await setFavourite(other, 1, true);
    await setFavourite(other, 1, false);
    await setFavourite(other, 2, true);
    for (const position of [10, 20, 30]) await recordLessonProgress(other, { lessonId: 7, courseId: 1, position, completed: false });
    const { total } = await pendingActions(other);
    expect(total).toBe(5 + 1 + 2 + 1);
    expect(await pendingChangeCount(other)).toBe(total);
  });

  it("reads the device's queue: 3 answers made offline are 3 changes, not their 6+ records", async () => {
    const db = freshDb();
    const bank = [q(1, 2), q(2, 2), q(3, 2)];
    await saveBank(db, { id: 2, classifyId: 2, title: "Maths", version: "v1" }, bank);
    for (const question of bank) {
      await answerPractice(db, { bankId: 2, question, answer: "A" });
      await setProgress(db, 2, question.id);
    }
    await setFavourite(db, 1, true);
    expect(await db.outbox.count()).toBe(10);
    const pending = await pendingActions(db);
    expect(pending.total).toBe(4);
    expect(pending.actions.map((a) => [a.kind, a.count])).toEqual([
      ["favourite.set", 1],
      ["practice.answer", 3],
    ]);
  });
});

describe("content names in the reader's language", () => {
  it("keeps a bank's title in each language it was downloaded in", async () => {
    const db = freshDb();
    await saveBank(db, { id: 2, classifyId: 2, title: "数学基础", version: "v1", lang: "zh-cn" }, [q(1, 2)]);
    await rememberBankTitle(db, 2, "en", "Basic maths");
    let row = (await db.banks.get(2))!;
    expect(localBankTitle(row, "zh-cn")).toBe("数学基础");
    expect(localBankTitle(row, "en")).toBe("Basic maths");
    // A new version downloaded in English keeps the Chinese name.
    await saveBank(db, { id: 2, classifyId: 2, title: "Basic maths", version: "v2", lang: "en" }, [q(1, 2), q(2, 2)]);
    row = (await db.banks.get(2))!;
    expect(localBankTitle(row, "zh-cn")).toBe("数学基础");
    expect(localBankTitle(row, "en")).toBe("Basic maths");
    expect(row.questionCount).toBe(2);
  });

  it("keys the service worker's copy of an API answer by the language it was asked in", () => {
    const ask = (lang?: string) => new Request("https://app.test/api/exam/catalog?x=1", { headers: lang ? { "think-lang": lang } : {} });
    expect(languageCacheKey(ask("en"))).not.toBe(languageCacheKey(ask("zh-cn")));
    expect(languageCacheKey(ask("zh-cn"))).toBe(languageCacheKey(ask("zh-cn")));
    expect(new URL(languageCacheKey(ask("en"))).searchParams.get("x")).toBe("1");
    expect(languageCacheKey(ask())).toBe("https://app.test/api/exam/catalog?x=1");
  });
});
