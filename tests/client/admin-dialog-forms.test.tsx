import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError, request } from "../../src/client/api/index.ts";
import { MarkDialog } from "../../src/client/admin/exam/MarkDialog.tsx";
import { AdjustMoney, AdjustScore } from "../../src/client/admin/user/AdjustDialog.tsx";

// The request layer is mocked: what a form sends, and that a refused form sends nothing.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

afterEach(() => {
  vi.mocked(request).mockReset();
});

const wrap = (ui: ReactNode) =>
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{ui}</QueryClientProvider>
    </I18nProvider>,
  );
const save = () => fireEvent.click(screen.getByRole("button", { name: "Save" }));
const sent = () => vi.mocked(request).mock.calls.map(([config]) => config).filter((config) => config.method === "post");

describe("AdjustMoney / AdjustScore", () => {
  const row = { id: 3, username: "ann", nickname: "", money: 1000, score: 50 };

  it.each(["0", "1.234", "1000000.01", "abc", ""])("refuses the amount %j with the shared schema's message and sends nothing", async (amount) => {
    wrap(<AdjustMoney row={row} onDone={() => undefined} />);
    fireEvent.change(screen.getByLabelText("Amount (yuan, negative to take away)"), { target: { value: amount } });
    save();
    await waitFor(() =>
      expect(screen.getByLabelText("Amount (yuan, negative to take away)")).toHaveAccessibleDescription("Enter a non-zero amount of at most 1,000,000.00, with at most 2 decimals"),
    );
    expect(screen.getByLabelText("Amount (yuan, negative to take away)")).toHaveFocus();
    expect(sent()).toEqual([]);
  });

  it("shows the balance after the change as it is typed and sends it in cents with the memo trimmed", async () => {
    vi.mocked(request).mockResolvedValue({ data: null } as never);
    const onDone = vi.fn();
    wrap(<AdjustMoney row={row} onDone={onDone} />);
    fireEvent.change(screen.getByLabelText("Amount (yuan, negative to take away)"), { target: { value: "-2.5" } });
    expect(screen.getByText("7.50")).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText("Memo"), { target: { value: " refund " } });
    save();
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sent()).toEqual([expect.objectContaining({ url: "/admin/user/moneyLog/add", data: { user_id: 3, money: -250, memo: "refund" } })]);
  });

  it("takes whole points only, and shows the server's refusal beside the field", async () => {
    vi.mocked(request).mockRejectedValue(ApiError.fromEnvelope({ code: 0, msg: "Refused", data: { fields: { score: "The points may not go below zero" } } }, 200));
    wrap(<AdjustScore row={row} onDone={() => undefined} />);
    const field = screen.getByLabelText("Points (negative to take away)");
    fireEvent.change(field, { target: { value: "1.5" } });
    save();
    await waitFor(() => expect(field).toHaveAccessibleDescription("Enter a non-zero whole number of points of at most 10,000,000"));
    expect(sent()).toEqual([]);
    fireEvent.change(field, { target: { value: "-60" } });
    save();
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toMatchObject({ url: "/admin/user/scoreLog/add", data: { user_id: 3, score: -60, memo: "" } });
    await waitFor(() => expect(field).toHaveAccessibleDescription("The points may not go below zero"));
  });
});

describe("MarkDialog", () => {
  const row = { id: 6, status: "pending", username: "bo", stem: "Why?", answer: "Because", max_score: 5, page_leaves: 0, page_leave_ms: 0 };

  it.each(["", "-1", "5.5", "1.234", "x"])("refuses the score %j and sends nothing", async (score) => {
    wrap(<MarkDialog row={row} onDone={() => undefined} />);
    fireEvent.change(screen.getByLabelText("Score (0 to 5)"), { target: { value: score } });
    fireEvent.click(screen.getByRole("button", { name: "Save mark" }));
    await waitFor(() => expect(screen.getByLabelText("Score (0 to 5)")).toHaveAccessibleDescription("Enter a score from 0 to 5, with at most 2 decimals"));
    expect(sent()).toEqual([]);
  });

  it("sends the score as a number and the comment trimmed", async () => {
    vi.mocked(request).mockResolvedValue({ data: null } as never);
    const onDone = vi.fn();
    wrap(<MarkDialog row={row} onDone={onDone} />);
    fireEvent.change(screen.getByLabelText("Score (0 to 5)"), { target: { value: "4.5" } });
    fireEvent.change(screen.getByLabelText("Comment"), { target: { value: " good " } });
    fireEvent.click(screen.getByRole("button", { name: "Save mark" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sent()).toEqual([expect.objectContaining({ url: "/admin/exam/marking/mark", data: { id: 6, score: 4.5, comment: "good" } })]);
  });
});
