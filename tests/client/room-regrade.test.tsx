import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import { RoomRegrade } from "../../src/client/admin/exam/RoomRegrade.tsx";
import type { RegradeCandidates, RegradeOutcome } from "../../src/shared/admin/regrade.ts";
import type { ExamRecordDetail } from "../../src/shared/exam/catalog.ts";
import { envelope } from "./crud-example.tsx";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const candidates: RegradeCandidates = {
  room: { id: 7, title: "Final" },
  openAttempts: 1,
  candidates: [
    { questionId: 11, stem: "Pick one", type: "single", attempts: 3, changes: ["answer"], points: { min: 4, max: 4 }, questionScore: 3 },
    { questionId: 12, stem: "True?", type: "judge", attempts: 3, changes: ["analysis", "options"], points: { min: 6, max: 6 }, questionScore: 2 },
  ],
};
const outcome: RegradeOutcome = {
  attempts: [
    { attemptId: 1, username: "ann", nickname: "Ann", oldScore: 18, newScore: 14, oldPassed: true, newPassed: true, questions: [11] },
    { attemptId: 2, username: "bob", nickname: "", oldScore: 8, newScore: 12, oldPassed: false, newPassed: true, questions: [11] },
  ],
  summary: { attempts: 2, scoreChanged: 2, nowPassed: 1, nowFailed: 0 },
  regradedAt: null,
};
const calls = () => vi.mocked(request).mock.calls.map((c) => c[0] as AxiosRequestConfig);

beforeEach(() => {
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
    if (config.url === "/admin/exam/room/regradeCandidates") return envelope(candidates);
    if (config.url === "/admin/exam/room/regradePreview") return envelope(outcome);
    if (config.url === "/admin/exam/room/regrade") return envelope({ ...outcome, regradedAt: 1_800_000_000 });
    throw new Error(`unexpected ${config.url}`);
  }) as never);
});
afterEach(() => vi.mocked(request).mockReset());

function renderDialog(onDone = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <RoomRegrade row={{ id: 7 }} onDone={onDone} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return onDone;
}

describe("the room's regrade dialog", () => {
  it("lists candidates with what changed, previews the chosen ones without saving, and applies after a confirm", async () => {
    const onDone = renderDialog();
    const first = await screen.findByRole("checkbox", { name: /Pick one/ });
    expect(screen.getByText(/Changed: answer key/)).toBeTruthy();
    expect(screen.getByText(/Changed: analysis, options/)).toBeTruthy();
    expect(screen.getByText("Attempts still in progress are not regraded: 1")).toBeTruthy();
    // Nothing chosen: no preview; no preview: no apply.
    expect((screen.getByRole("button", { name: "Preview" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Apply" }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(first);
    await userEvent.click(screen.getByRole("button", { name: "Preview" }));
    const table = await screen.findByTestId("regrade-preview");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(["Ann1814Passed", "bob812Failed → Passed"]);
    expect(screen.getByTestId("regrade-summary").textContent).toBe("Attempts changed: 2; scores changed: 2; now passed: 1; now failed: 0");
    expect(calls().find((c) => c.url === "/admin/exam/room/regradePreview")!.params).toEqual({ id: 7, questionIds: "11" });
    // The preview saved nothing.
    expect(calls().some((c) => c.url === "/admin/exam/room/regrade")).toBe(false);

    await userEvent.click(screen.getByRole("button", { name: "Apply" }));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm.textContent).toContain("Regrade 2 attempts?");
    await userEvent.click(within(confirm).getByRole("button", { name: "Apply" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const applied = calls().find((c) => c.url === "/admin/exam/room/regrade")!;
    expect(applied).toMatchObject({ method: "post", data: { id: 7, questionIds: [11] } });
  });

  it("changing the choice drops the preview, so what is applied is what was previewed", async () => {
    renderDialog();
    await userEvent.click(await screen.findByRole("checkbox", { name: /Pick one/ }));
    await userEvent.click(screen.getByRole("button", { name: "Preview" }));
    await screen.findByTestId("regrade-preview");
    await userEvent.click(screen.getByRole("checkbox", { name: /True\?/ }));
    expect(screen.queryByTestId("regrade-preview")).toBeNull();
    expect((screen.getByRole("button", { name: "Apply" }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("the member's result after a regrade", () => {
  it("says it was regraded and when; says nothing when it was not", async () => {
    const { ResultSummary, viewOfRecord } = await import("../../src/client/features/exam/ExamResultPage.tsx");
    const at = new Date(2026, 10, 27, 21, 5).getTime() / 1000;
    const base = { title: "Final", score: 12, totalScore: 20, passScore: 10, passed: true, submittedAt: null };
    const { rerender } = render(
      <I18nProvider i18n={i18n}>
        <ResultSummary {...base} regradedAt={at * 1000} />
      </I18nProvider>,
    );
    expect(screen.getByTestId("result-regraded").textContent).toBe("Regraded on 2026-11-27 21:05: staff corrected questions of this exam, and the score counts them as corrected.");
    rerender(
      <I18nProvider i18n={i18n}>
        <ResultSummary {...base} regradedAt={null} />
      </I18nProvider>,
    );
    expect(screen.queryByTestId("result-regraded")).toBeNull();
    // The record's seconds become the view's milliseconds.
    const record: ExamRecordDetail = {
      attempt: { uuid: "u", kind: "official", paperId: 1, paperTitle: "P", roomTitle: "Final", score: 12, passed: true, startedAt: 1, submittedAt: 2, status: "submitted", pendingReview: 0, deadline: null, totalScore: 20, passScore: 10, regradedAt: at },
      questions: [],
      answers: {},
      results: {},
    };
    expect(viewOfRecord(record).regradedAt).toBe(at * 1000);
    expect(viewOfRecord({ ...record, attempt: { ...record.attempt, regradedAt: null } }).regradedAt).toBeNull();
  });
});
