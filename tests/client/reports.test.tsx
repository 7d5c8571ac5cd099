import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import type { AxiosRequestConfig } from "axios";
import type { ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import { TranscriptView, memberTranscript } from "../../src/client/features/reports/TranscriptView.tsx";
import type { Transcript } from "../../src/shared/reports.ts";
import { envelope } from "./crud-example.tsx";
import { MemoryRouter } from "react-router-dom";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(() => vi.mocked(request).mockReset());

function wrap(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>{node}</MemoryRouter>
      </QueryClientProvider>
    </I18nProvider>,
  );
}

const transcript: Transcript = {
  member: { id: 8, username: "ann", nickname: "Ann" },
  rooms: [
    { id: 3, title: "Safety exam", bestScore: 85.5, passScore: 60, passed: true, lastAt: 1_790_000_000, attemptsUsed: 2, attemptsAllowed: 3 },
    { id: 4, title: "Fire drill", bestScore: 40, passScore: 60, passed: false, lastAt: 1_790_000_000, attemptsUsed: 1, attemptsAllowed: 0 },
  ],
  courses: [{ id: 5, title: "Basics", lessonsDone: 1, lessonsTotal: 4, completedAt: null }],
  review: { days: 1, reviews: 12, lastAt: 1_790_000_000 },
  certificates: [{ serial: "ABCDEFGHJKLMNPQR", title: "Safety certificate", kind: "room", issuedAt: 1_790_000_000, score: 85.5, revoked: true }],
};

describe("the transcript", () => {
  it("shows each room's best score, result and attempts, each course's lessons, and the review streak, from the staff route", async () => {
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
      if (config.url === "/admin/user/user/transcript" && (config.params as { id: number }).id === 8) return envelope(transcript);
      throw new Error(`unexpected ${config.url}`);
    }) as never);
    wrap(<TranscriptView source={memberTranscript(8)} />);
    const rooms = await screen.findByTestId("transcript-rooms");
    const [safety, fire] = within(rooms).getAllByRole("listitem");
    expect(safety).toHaveTextContent("Safety exam");
    expect(safety).toHaveTextContent("Passed");
    expect(safety).toHaveTextContent("85.5 / 60");
    expect(safety).toHaveTextContent("2 / 3");
    expect(fire).toHaveTextContent("Not passed");
    expect(within(fire!).getByText("1")).toBeInTheDocument();
    const course = within(screen.getByTestId("transcript-courses")).getByRole("progressbar", { name: "Basics" });
    expect(course).toHaveAttribute("aria-valuenow", "25");
    expect(screen.getByTestId("transcript-courses")).toHaveTextContent("1 of 4 lessons");
    expect(screen.getByTestId("transcript-review")).toHaveTextContent("Review streak: 1 day · 12 reviews");
    const certificate = within(screen.getByTestId("transcript-certificates")).getByRole("listitem");
    expect(certificate).toHaveTextContent("Safety certificate");
    expect(certificate).toHaveTextContent("Revoked");
    expect(within(certificate).getByRole("link", { name: "ABCDEFGHJKLMNPQR" })).toHaveAttribute("href", "/verify/ABCDEFGHJKLMNPQR");
  });
});
