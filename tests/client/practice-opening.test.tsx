import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { act, render, renderHook, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ExamQuestion } from "../../src/shared/exam/types.ts";
import { deleteMemberDb, openMemberDb } from "../../src/client/offline/db.ts";
import { ensureOffline, getOfflineDb, stopOffline, usePracticeBank, usePracticeState } from "../../src/client/offline/index.ts";
import { practiceOpening, readBankQuestions, readPracticeBank, readPracticeOpening, readPracticeState } from "../../src/client/offline/practiceOpen.ts";
import { answerPractice, saveBank, setFavourite, setProgress } from "../../src/client/offline/repository/index.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";
import PracticePage from "../../src/client/features/exam/PracticePage.tsx";

// No network: the page's bank download and the sync engine's requests fail as offline.
const api = vi.hoisted(() => ({ request: vi.fn<(config: { url?: string }, options?: unknown) => Promise<unknown>>() }));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

// An offline reload: the sync engine sends nothing and the page downloads nothing.
beforeEach(() => {
  vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
});

const BANK = 4;
const QUESTIONS: ExamQuestion[] = Array.from({ length: 45 }, (_, i) => ({
  id: 500 + i,
  type: "single",
  classifyId: BANK,
  stem: `Stem of question ${500 + i}`,
  options: [
    { key: "A", text: "Yes" },
    { key: "B", text: "No" },
  ],
  answer: "A",
  score: 1,
  difficulty: 1,
}));

let nextMember = 9400;
const members: number[] = [];

afterEach(async () => {
  stopOffline();
  api.request.mockReset();
  vi.restoreAllMocks();
  for (const memberId of members.splice(0)) await deleteMemberDb(memberId);
});

/** A member's device with the bank saved, the member on its 24th question (answered before) and one favourite. */
async function device(): Promise<number> {
  const memberId = ++nextMember;
  members.push(memberId);
  const db = openMemberDb(memberId);
  await saveBank(db, { id: BANK, classifyId: BANK, title: "Law", version: "1" }, QUESTIONS);
  await answerPractice(db, { bankId: BANK, question: QUESTIONS[23]!, answer: "B" });
  await setProgress(db, BANK, 23);
  await setFavourite(db, 523, true);
  db.close();
  useUserInfo.setState({ id: memberId, token: "t" });
  api.request.mockRejectedValue(new Error("offline"));
  return memberId;
}

describe("the practice page a page starts on", () => {
  it("reads, with the database, what the page's live queries read: the bank, what was done in it and the questions around the saved position", async () => {
    const memberId = await device();
    const db = openMemberDb(memberId);
    const opening = await readPracticeOpening(db, BANK);
    expect(opening.bank).toEqual(await readPracticeBank(db, BANK));
    expect(opening.state).toEqual(await readPracticeState(db, BANK));
    expect(opening.state.progress?.position).toBe(23);
    // The window of the 24th question (21st to 40th), one neighbour beyond each end.
    const window = QUESTIONS.slice(19, 41).map((q) => q.id);
    expect(opening.questions).toEqual(await readBankQuestions(db, BANK, window));
    expect([...opening.questions.rows.keys()]).toEqual(window);
    db.close();
  });

  it("draws the question in the screen's first render once the database is open, not after its live queries", async () => {
    const memberId = await device();
    await ensureOffline(memberId, { practiceBank: BANK });
    expect(getOfflineDb()).not.toBeNull();
    render(
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={[`/exam/myPractice?bank=${BANK}`]}>
          <Routes>
            <Route path="/exam/myPractice" element={<PracticePage />} />
          </Routes>
        </MemoryRouter>
      </I18nProvider>,
    );
    // No IndexedDB request has been answered since the render: the question is from the opening.
    expect(screen.getByText("Stem of question 523")).toBeInTheDocument();
    expect(screen.getByText("Question 24 of 45")).toBeInTheDocument();
    // Its earlier answer and the favourite, as the live queries have them.
    expect(screen.getByRole("radio", { name: /No/ })).toBeChecked();
    expect(screen.getByRole("button", { name: "Favourite" })).toHaveAttribute("aria-pressed", "true");
    // The live queries take over with the same content.
    expect(await screen.findByText("Stem of question 523")).toBeInTheDocument();
  });

  it("is forgotten once anything is written, so no screen is drawn from a stale read", async () => {
    const memberId = await device();
    await ensureOffline(memberId, { practiceBank: BANK });
    const db = getOfflineDb()!;
    expect(practiceOpening(db, BANK)).toBeDefined();
    // Another bank, or another member's database, never gets it.
    expect(practiceOpening(db, BANK + 1)).toBeUndefined();
    const another = openMemberDb(memberId);
    expect(practiceOpening(another, BANK)).toBeUndefined();
    another.close();

    await setFavourite(db, 524, true);
    await vi.waitFor(() => expect(practiceOpening(db, BANK)).toBeUndefined());
    const state = renderHook(() => usePracticeState(db, BANK));
    const bank = renderHook(() => usePracticeBank(db, BANK));
    // Read live, not from the opening: nothing until the query answers, then the new favourite.
    expect(state.result.current).toBeUndefined();
    expect(bank.result.current).toBeUndefined();
    await vi.waitFor(() => expect(state.result.current?.favourites.map((f) => f.questionId).sort()).toEqual([523, 524]));
    expect(bank.result.current?.ids).toHaveLength(45);
    await act(async () => undefined);
  });

  it("is not read for a page that starts elsewhere", async () => {
    const memberId = await device();
    await ensureOffline(memberId);
    expect(practiceOpening(getOfflineDb()!, BANK)).toBeUndefined();
  });
});
