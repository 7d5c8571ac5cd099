import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Link, MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import MyTestPage from "../../src/client/features/exam/MyTestPage.tsx";
import OfficialTab from "../../src/client/features/exam/OfficialTab.tsx";
import { deleteMemberDb } from "../../src/client/offline/db.ts";
import { startOffline, stopOffline } from "../../src/client/offline/index.ts";
import { useUserInfo } from "../../src/client/stores/userInfo.ts";
import type { Catalog } from "../../src/shared/exam/catalog.ts";
import type { OfficialStart } from "../../src/shared/exam/official.ts";

// The app's HTTP client, replaced: the catalogue and the start are answered here.
const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; data?: unknown }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

const UUID = "44444444-4444-4444-8444-444444444444";

function catalog(attemptsLeft: number, extras: { extraMinutes: number; extraAttempts: number } = { extraMinutes: 0, extraAttempts: 0 }): Catalog {
  const now = Math.floor(Date.now() / 1000);
  return {
    classify: [],
    papers: [{ id: 8, title: "Mock road rules", totalScore: 30, passScore: 18, duration: 1800, banks: [] }],
    rooms: [
      {
        id: 4,
        title: "Road rules final",
        paperId: 9,
        startTime: now - 3600,
        endTime: now + 3600,
        duration: 1500 + extras.extraMinutes * 60,
        extraMinutes: extras.extraMinutes,
        attemptsAllowed: 3 + extras.extraAttempts,
        extraAttempts: extras.extraAttempts,
        attemptsLeft,
        questionCount: 12,
        totalScore: 40,
        passScore: 24,
        faceCheck: true,
      },
    ],
  };
}

function started(): OfficialStart {
  const now = Math.floor(Date.now() / 1000);
  return {
    attempt: { uuid: UUID, roomId: 4, roomTitle: "Road rules final", paperId: 9, startedAt: now, deadline: now + 1500, serverTime: now, answers: {} },
    questions: [{ id: 11, type: "single", classifyId: 1, stem: "Red light?", options: [{ key: "A", text: "Stop" }, { key: "B", text: "Go" }], score: 5, difficulty: 1 }],
  };
}

function wrap(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/exam/myTest" element={<MyTestPage />} />
            <Route path="/exam/examTab/officialTest" element={<OfficialTab />} />
            <Route path="/exam/examTab/mockTest" element={<p>mock tab</p>} />
            <Route
              path="/exam/my_test_detail"
              element={
                <div>
                  <p>taking page</p>
                  <Link to="/exam/examTab/officialTest">Back to the exams</Link>
                </div>
              }
            />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe("entering an official exam", () => {
  afterEach(() => {
    stopOffline();
    api.request.mockReset();
  });

  it("lists official exams and mock papers on /exam/myTest as links to them", async () => {
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/catalog") return { code: 1, msg: "", time: 0, data: catalog(3) };
      throw new Error("offline");
    });
    wrap("/exam/myTest");
    expect(await screen.findByRole("link", { name: "Road rules final" })).toHaveAttribute("href", "/exam/examTab/officialTest?room=4");
    expect(screen.getByRole("link", { name: "Mock road rules" })).toHaveAttribute("href", "/exam/examTab/mockTest?paper=8");
    await userEvent.setup().click(screen.getByRole("link", { name: "Road rules final" }));
    expect(await screen.findByRole("listitem", { current: true })).toHaveTextContent("Road rules final");
  });

  it("shows the introduction's figures, starts nothing until Start, and counts the attempts left down", async () => {
    const memberId = 4701;
    useUserInfo.setState({ id: memberId, token: "t" });
    let left = 3;
    const starts: unknown[] = [];
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/catalog") return { code: 1, msg: "", time: 0, data: catalog(left) };
      if (config.url === "/api/exam/official/start") {
        starts.push(config.data);
        left -= 1;
        return { code: 1, msg: "", time: 0, data: started() };
      }
      throw new Error("offline");
    });
    await act(async () => startOffline(memberId));
    wrap("/exam/examTab/officialTest");
    const user = userEvent.setup();
    expect(await screen.findByText("3 attempts left")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Enter the exam" }));
    const intro = await screen.findByRole("alertdialog", { name: "Road rules final" });
    const figure = (label: string) => within(intro).getByText(label).nextElementSibling?.textContent;
    expect(figure("Duration")).toBe("25 minutes");
    expect(figure("Questions")).toBe("12");
    expect(figure("Total points")).toBe("40");
    expect(figure("Pass score")).toBe("24");
    expect(figure("Attempts left")).toBe("3 of 3");
    expect(figure("Face check")).toBe("Required");
    // Opening the introduction (and leaving it) starts nothing.
    expect(starts).toEqual([]);
    await user.click(within(intro).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(starts).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Enter the exam" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Start" }));
    expect(await screen.findByText("taking page")).toBeInTheDocument();
    expect(starts).toEqual([{ roomId: 4 }]);

    // Back on the list: the attempt is counted.
    await user.click(screen.getByRole("link", { name: "Back to the exams" }));
    expect(await screen.findByText("2 attempts left")).toBeInTheDocument();
    stopOffline();
    await deleteMemberDb(memberId);
  });

  it("tells a member with overrides the extra minutes and attempts included (room fairness)", async () => {
    api.request.mockImplementation(async (config) => {
      if (config.url === "/api/exam/catalog") return { code: 1, msg: "", time: 0, data: catalog(4, { extraMinutes: 10, extraAttempts: 1 }) };
      throw new Error("offline");
    });
    wrap("/exam/examTab/officialTest");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Enter the exam" }));
    const intro = await screen.findByRole("alertdialog", { name: "Road rules final" });
    const figure = (label: string) => within(intro).getByText(label).nextElementSibling?.textContent;
    expect(figure("Duration")).toBe("35 minutes, includes 10 extra minutes");
    expect(figure("Attempts left")).toBe("4 of 4, includes 1 extra attempt");
  });
});
