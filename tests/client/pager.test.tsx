import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ComponentType } from "react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ExamRecordRow } from "../../src/shared/exam/catalog.ts";
import MyExamsPage from "../../src/client/features/exam/MyExamsPage.tsx";
import RecordsTab from "../../src/client/features/exam/RecordsTab.tsx";
import { Pager, pageCountOf } from "../../src/client/ui/Pager.tsx";

// The app's HTTP client, replaced: the test gives the screens the server's answers.
const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; params?: Record<string, unknown> }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});
afterEach(() => {
  api.request.mockReset();
});

function renderPager(page: number, pageCount: number) {
  const onPage = vi.fn<(page: number) => void>();
  const view = render(
    <I18nProvider i18n={i18n}>
      <Pager page={page} pageCount={pageCount} onPage={onPage} />
    </I18nProvider>,
  );
  return { onPage, ...view };
}

describe("Pager", () => {
  it("counts whole pages, at least one", () => {
    expect(pageCountOf(0, 10)).toBe(1);
    expect(pageCountOf(10, 10)).toBe(1);
    expect(pageCountOf(11, 10)).toBe(2);
    expect(pageCountOf(25, 10)).toBe(3);
  });

  it("shows nothing when everything fits on one page", () => {
    const { container } = renderPager(1, 1);
    expect(container).toBeEmptyDOMElement();
  });

  it("goes back and on from a middle page", async () => {
    const user = userEvent.setup();
    const { onPage } = renderPager(2, 3);
    const nav = screen.getByRole("navigation", { name: "Pages" });
    expect(nav).toHaveTextContent("Page 2 of 3");
    await user.click(screen.getByRole("button", { name: "Previous page" }));
    await user.click(screen.getByRole("button", { name: "Next page" }));
    expect(onPage.mock.calls).toEqual([[1], [3]]);
  });

  it("goes no further than the first and the last page", async () => {
    const user = userEvent.setup();
    const first = renderPager(1, 3);
    expect(screen.getByRole("button", { name: "Previous page" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Next page" })).toBeEnabled();
    first.unmount();
    const last = renderPager(3, 3);
    expect(screen.getByRole("button", { name: "Next page" })).toBeDisabled();
    await user.click(screen.getByRole("button", { name: "Next page" }));
    expect(last.onPage).not.toHaveBeenCalled();
  });
});

// ------------------------------------------------------------------ the screens that page with it

const envelope = (data: unknown) => ({ code: 1, msg: "", time: 0, data });

function attempt(n: number): ExamRecordRow {
  return {
    id: n,
    uuid: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    kind: "mock",
    paperId: 9,
    paperTitle: `Mock paper ${n}`,
    roomTitle: null,
    score: 50,
    totalScore: 100,
    passed: null,
    startedAt: 1_700_000_000 + n,
    submittedAt: 1_700_000_900 + n,
    status: "submitted",
    pendingReview: 0,
  };
}

/** A server holding `total` attempts, answering /api/exam/records a page at a time. */
function serveAttempts(total: number): { pagesAsked: () => unknown[] } {
  api.request.mockImplementation(async (config) => {
    if (config.url === "/api/exam/records") {
      const page = Number(config.params?.page);
      const limit = Number(config.params?.limit);
      const list = Array.from({ length: total }, (_, i) => attempt(i + 1)).slice((page - 1) * limit, page * limit);
      return envelope({ list, total });
    }
    if (config.url === "/api/exam/catalog") return envelope({ classify: [], papers: [], rooms: [] });
    throw new Error("offline");
  });
  return {
    pagesAsked: () => api.request.mock.calls.filter(([config]) => config.url === "/api/exam/records").map(([config]) => config.params),
  };
}

describe.each<[string, ComponentType, string]>([
  ["My exams", MyExamsPage, "/user/exam/my_exam"],
  ["the exam records tab", RecordsTab, "/exam/examTab/testRecord"],
])("%s", (_name, Screen, path) => {
  it("pages through the member's attempts ten at a time", async () => {
    const user = userEvent.setup();
    const server = serveAttempts(23);
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter initialEntries={[path]}>
            <Screen />
          </MemoryRouter>
        </QueryClientProvider>
      </I18nProvider>,
    );
    expect(await screen.findByRole("link", { name: "Mock paper 1" })).toBeInTheDocument();
    // A record's score out of the paper's total as sat.
    expect(screen.getByRole("link", { name: "Mock paper 1" }).closest("li")).toHaveTextContent("Score 50 / 100");
    const pager = screen.getByRole("navigation", { name: "Pages" });
    expect(pager).toHaveTextContent("Page 1 of 3");
    expect(screen.getByRole("button", { name: "Previous page" })).toBeDisabled();

    await user.click(screen.getByRole("button", { name: "Next page" }));
    expect(await screen.findByRole("link", { name: "Mock paper 11" })).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Mock paper 1" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Next page" }));
    expect(await screen.findByRole("link", { name: "Mock paper 21" })).toBeInTheDocument();
    expect(pager).toHaveTextContent("Page 3 of 3");
    expect(screen.getByRole("button", { name: "Next page" })).toBeDisabled();
    expect(server.pagesAsked()).toEqual([
      { page: 1, limit: 10 },
      { page: 2, limit: 10 },
      { page: 3, limit: 10 },
    ]);

    await user.click(screen.getByRole("button", { name: "Previous page" }));
    expect(await screen.findByRole("link", { name: "Mock paper 11" })).toBeInTheDocument();
  });

  it("shows no pager when the attempts fit on one page", async () => {
    serveAttempts(10);
    render(
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter initialEntries={[path]}>
            <Screen />
          </MemoryRouter>
        </QueryClientProvider>
      </I18nProvider>,
    );
    expect(await screen.findByRole("link", { name: "Mock paper 10" })).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Pages" })).toBeNull();
  });
});
