import type * as ApiModule from "../../src/client/api/index.ts";
import { ApiError } from "../../src/client/api/errors.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PaperComposer } from "../../src/client/admin/exam/PaperComposer.tsx";
import paperRows from "../../src/client/admin/exam/paperRows.ts";
import type { CrudRow } from "../../src/client/admin/crud/types.ts";
import { chooseOption, optionNames } from "../helpers/select.ts";

// The app's HTTP client, replaced: the composer gets the server's answers from here.
const api = vi.hoisted(() => ({
  request: vi.fn<(config: { url?: string; method?: string; data?: unknown; params?: unknown }, options?: unknown) => Promise<unknown>>(),
}));
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: api.request }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});
afterEach(() => {
  api.request.mockReset();
});

const envelope = (data: unknown) => ({ code: 1, msg: "", time: 0, data });
const drawRow = (id: number, difficulty: number | null): CrudRow => ({
  id,
  paper_id: 5,
  kind: "draw",
  classify_id: 7,
  classify_title: "Road signs",
  question_type: "single",
  difficulty,
  count: 2,
  score: 3,
  subtotal: 6,
  weigh: -id,
});

function renderComposer() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <PaperComposer row={{ id: 5, title: "Driving theory", total_score: 12 }} onDone={() => undefined} />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe("the paper composer's draw rules with a difficulty", () => {
  it("shows each draw rule's difficulty, sends the one chosen, and shows the bank's refusal beside the count", async () => {
    const added: unknown[] = [];
    api.request.mockImplementation(async (config) => {
      if (config.url === "/admin/exam/paperRow/index") return envelope({ list: [drawRow(1, 3), drawRow(2, null)], total: 2 });
      if (config.url === "/admin/exam/paperRow/add") {
        added.push(config.data);
        throw new ApiError({
          code: 0,
          msg: "refused",
          data: { fields: { count: "The bank has only 1 enabled questions of this type with difficulty 4: the draw rule cannot take 2" } },
        });
      }
      return envelope({ list: [], total: 0 });
    });
    renderComposer();
    const rows = await screen.findByTestId("composer-rows");
    await waitFor(() => expect(within(rows).getAllByRole("listitem")).toHaveLength(2));
    expect(rows).toHaveTextContent("Draw 2 × Single choice of difficulty 3 from Road signs");
    expect(rows).toHaveTextContent("Draw 2 × Single choice of any difficulty from Road signs");
    expect(screen.getByTestId("composer-total")).toHaveTextContent("Questions add up to 12 of 12 points");

    await userEvent.click(screen.getByRole("radio", { name: "Draw rule" }));
    const difficulty = screen.getByRole("combobox", { name: "Difficulty" });
    expect(difficulty).toHaveTextContent("Any difficulty");
    expect(await optionNames(difficulty)).toEqual(["Any difficulty", "1", "2", "3", "4", "5"]);

    // "Any difficulty" travels as null.
    await userEvent.click(screen.getByRole("button", { name: "Add row" }));
    await waitFor(() => expect(added).toHaveLength(1));
    expect(added[0]).toMatchObject({ kind: "draw", question_type: "single", difficulty: null, count: 1 });

    await chooseOption(difficulty, "4");
    const count = screen.getByRole("textbox", { name: "Count" });
    await userEvent.clear(count);
    await userEvent.type(count, "2");
    await userEvent.click(screen.getByRole("button", { name: "Add row" }));
    await waitFor(() => expect(added).toHaveLength(2));
    expect(added[1]).toMatchObject({ kind: "draw", difficulty: 4, count: 2 });
    expect(await screen.findByText("The bank has only 1 enabled questions of this type with difficulty 4: the draw rule cannot take 2")).toBeInTheDocument();
  });
});

describe("the question rows screen", () => {
  it("lists a draw rule's difficulty (or any) and offers it in the form for draw rules only", () => {
    const column = paperRows.columns.find((c) => c.field === "difficulty");
    expect(column?.cell?.(drawRow(1, 2))).toBe("2");
    expect(column?.cell?.(drawRow(1, null))).toBe("Any");
    expect(column?.cell?.({ id: 3, kind: "fixed", difficulty: null })).toBe("–");
    const field = paperRows.form?.find((f) => f.field === "difficulty");
    expect(field?.options?.map((o) => o.value)).toEqual([1, 2, 3, 4, 5]);
    expect(field?.when?.({ kind: "draw" })).toBe(true);
    expect(field?.when?.({ kind: "fixed" })).toBe(false);
    // The shared schema: a draw rule's difficulty 1..5 or null (any), absent meaning any.
    const base = { paper_id: 5, kind: "draw", classify_id: 7, question_type: "single", count: 1, score: 1 };
    expect(paperRows.schema?.safeParse({ ...base, difficulty: 5 }).success).toBe(true);
    expect(paperRows.schema?.safeParse(base).data).toMatchObject({ difficulty: null });
    expect(paperRows.schema?.safeParse({ ...base, difficulty: 0 }).success).toBe(false);
  });
});

describe("the paper composer's points", () => {
  it("defaults a fixed question's points to its own score and shows the running total with the row against the paper's total", async () => {
    const added: Record<string, unknown>[] = [];
    const fixedRow: CrudRow = { id: 1, paper_id: 5, kind: "fixed", question_id: 3, question_stem: "Stop means?", count: 1, score: 4, subtotal: 4, weigh: 0 };
    api.request.mockImplementation(async (config) => {
      if (config.url === "/admin/exam/paperRow/index") return envelope({ list: [fixedRow], total: 1 });
      if (config.url === "/admin/exam/question/index")
        return envelope({
          list: [
            { id: 9, stem: "What does a red octagon mean?", type: "single", score: 5, classify_title: "交通标志", classify_title_en: "Road signs" },
            { id: 14, stem: "What does a red octagon mean?", type: "judge", score: 2, classify_title: "复习", classify_title_en: "" },
          ],
          total: 2,
        });
      if (config.url === "/admin/exam/paperRow/add") {
        added.push(config.data as Record<string, unknown>);
        return envelope({ id: 2 });
      }
      return envelope({ list: [], total: 0 });
    });
    renderComposer();
    const rows = await screen.findByTestId("composer-rows");
    await waitFor(() => expect(within(rows).getAllByRole("listitem")).toHaveLength(1));
    // 4 of the 12 promised points: the paper says it falls short, and that no room can use it so.
    const status = screen.getByTestId("composer-total");
    expect(status).toHaveTextContent("Questions add up to 4, the paper promises 12 points");
    expect(status).toHaveTextContent("An exam room cannot use this paper until its questions add up to its total.");
    const score = screen.getByRole("textbox", { name: "Score" });
    expect(score).toHaveValue("1");
    expect(screen.getByTestId("composer-with-row")).toHaveTextContent("With this row: 5 of 12 points");

    // Picking a question takes its own score (5) as the row's points.
    await userEvent.type(screen.getByRole("combobox", { name: "Question" }), "octagon");
    // The demo has questions of the same text: each suggestion says its id, type and bank (in the admin's language when it has one).
    const suggestions = await screen.findAllByRole("option");
    expect(suggestions.map((o) => o.textContent)).toEqual([
      "What does a red octagon mean?#9 · Single choice · Road signs",
      "What does a red octagon mean?#14 · True or false · 复习",
    ]);
    await userEvent.click(suggestions[0]!);
    expect(score).toHaveValue("5");
    expect(screen.getByTestId("composer-with-row")).toHaveTextContent("With this row: 9 of 12 points");
    // Staff may still give it other points; the total follows as they type.
    await userEvent.clear(score);
    await userEvent.type(score, "8");
    expect(screen.getByTestId("composer-with-row")).toHaveTextContent("With this row: 12 of 12 points");
    await userEvent.click(screen.getByRole("button", { name: "Add row" }));
    await waitFor(() => expect(added).toHaveLength(1));
    expect(added[0]).toMatchObject({ kind: "fixed", question_id: 9, score: 8 });
  });
});
