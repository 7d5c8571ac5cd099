import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { useState, type ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError, request } from "../../src/client/api/index.ts";
import { RoomOverrides } from "../../src/client/admin/exam/RoomOverrides.tsx";
import { RoomNotes, RoomWithholdingField } from "../../src/client/admin/exam/RoomWithholding.tsx";
import type { RoomOverride, RoomWithholding } from "../../src/shared/admin/rooms.ts";
import { envelope } from "./crud-example.tsx";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(() => vi.mocked(request).mockReset());

const calls = () => vi.mocked(request).mock.calls.map((c) => c[0] as AxiosRequestConfig);

function wrap(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>{node}</QueryClientProvider>
    </I18nProvider>,
  );
}

describe("the room's overrides dialog", () => {
  it("lists the room's overrides, adds one for a member group with its minutes and attempts, removes one, and shows a refusal", async () => {
    let overrides: RoomOverride[] = [{ id: 3, member: { id: 8, username: "ann", nickname: "Ann" }, group: null, extraMinutes: 15, extraAttempts: 1 }];
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
      if (config.url === "/admin/exam/room/overrides") return envelope({ overrides });
      if (config.url === "/admin/user/group/index") return envelope({ list: [{ id: 5, name: "Night shift" }], total: 1 });
      if (config.url === "/admin/exam/room/overrideAdd") {
        const body = config.data as { extra_minutes: number };
        if (body.extra_minutes > 1440) throw new ApiError({ code: 0, msg: "Enter the extra minutes, from 0 to 1440" });
        overrides = [...overrides, { id: 4, member: null, group: { id: 5, name: "Night shift" }, extraMinutes: 20, extraAttempts: 2 }];
        return envelope({ id: 4 });
      }
      if (config.url === "/admin/exam/room/overrideDel") {
        overrides = overrides.filter((o) => o.id !== (config.data as { override_id: number }).override_id);
        return envelope(null);
      }
      throw new Error(`unexpected ${config.url}`);
    }) as never);
    wrap(<RoomOverrides row={{ id: 7 }} onDone={vi.fn()} />);
    const user = userEvent.setup();
    const table = await screen.findByTestId("overrides");
    expect(within(table).getByText("Member Ann (ann)").closest("tr")).toHaveTextContent("Member Ann (ann)151");

    await user.click(screen.getByRole("radio", { name: "A member group" }));
    await user.type(screen.getByRole("combobox", { name: "Member group" }), "Night");
    await user.click(await screen.findByRole("option", { name: "Night shift" }));
    const minutes = screen.getByRole("spinbutton", { name: "Extra minutes per attempt" });
    await user.clear(minutes);
    await user.type(minutes, "5000");
    await user.click(screen.getByRole("button", { name: "Add" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Enter the extra minutes, from 0 to 1440");

    await user.clear(minutes);
    await user.type(minutes, "20");
    const attempts = screen.getByRole("spinbutton", { name: "Extra attempts" });
    await user.clear(attempts);
    await user.type(attempts, "2");
    await user.click(screen.getByRole("button", { name: "Add" }));
    expect(await screen.findByText("Group Night shift")).toBeInTheDocument();
    const adds = calls().filter((c) => c.url === "/admin/exam/room/overrideAdd");
    expect(adds.at(-1)!.data).toEqual({ id: 7, user_id: null, user_group_id: 5, extra_minutes: 20, extra_attempts: 2 });
    expect(screen.queryByRole("alert")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Remove the override of Member Ann (ann)" }));
    await waitFor(() => expect(screen.queryByText("Member Ann (ann)")).toBeNull());
    expect(calls().find((c) => c.url === "/admin/exam/room/overrideDel")!.data).toEqual({ id: 7, override_id: 3 });
  });
});

describe("what a room keeps from practice", () => {
  it("the room list's notes: a paper that no longer adds up, the practice questions kept until when, the overrides", () => {
    wrap(<RoomNotes row={{ id: 1, paper_total: 30, paper_rows_total: 26, withheld_questions: 12, closes_at: 1_900_000_000, overrides: 2 }} />);
    const notes = screen.getByTestId("room-notes");
    expect(notes).toHaveTextContent("The paper no longer adds up: its questions give 26 of 30 points, so members cannot start");
    expect(notes).toHaveTextContent(/Keeps 12 questions out of practice until 2030/);
    expect(notes).toHaveTextContent("2 overrides");
  });

  it("a room that keeps nothing and whose paper adds up has no notes", () => {
    wrap(<RoomNotes row={{ id: 1, paper_total: 30, paper_rows_total: 30, withheld_questions: 0, closes_at: 1, overrides: 0 }} />);
    expect(screen.queryByTestId("room-notes")).toBeNull();
  });

  it("the room form names the mock papers a save would keep for the exam before it happens, and the tick confirms it", async () => {
    const answer: RoomWithholding = { closesAt: 1_900_000_000, questions: 3, papers: [{ id: 8, title: "Road mock" }, { id: 9, title: "Shared mock" }] };
    vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => {
      if (config.url === "/admin/exam/room/withholding") return envelope(answer);
      throw new Error(`unexpected ${config.url}`);
    }) as never);
    const seen: unknown[] = [];
    function Form() {
      const [value, setValue] = useState<unknown>(false);
      seen.push(value);
      return (
        <RoomWithholdingField
          value={value}
          onChange={setValue}
          values={{ paper_id: 8, end_time: "2030-03-17T18:00" }}
          control={{ id: "confirm" }}
          editing={false}
          setValue={vi.fn()}
        />
      );
    }
    wrap(<Form />);
    const warning = await screen.findByRole("alert");
    expect(warning).toHaveTextContent("Saving this room keeps these mock papers for the official exam until");
    expect(warning).toHaveTextContent("“Road mock”, “Shared mock”");
    expect(screen.getByTestId("room-withholding")).toHaveTextContent(/this room keeps 3 questions of practice banks out of practice/);
    const query = calls().find((c) => c.url === "/admin/exam/room/withholding")!;
    expect(query.params).toEqual({ paper_id: 8, end_time: Math.floor(new Date("2030-03-17T18:00").getTime() / 1000) });
    await userEvent.setup().click(screen.getByRole("checkbox", { name: "Keep them for this exam and save" }));
    expect(seen.at(-1)).toBe(true);
  });

  it("says nothing is kept and asks for no tick when no mock paper is affected", async () => {
    vi.mocked(request).mockImplementation((async () => envelope({ closesAt: 1, questions: 0, papers: [] })) as never);
    wrap(<RoomWithholdingField value={false} onChange={vi.fn()} values={{ paper_id: 8, end_time: "2020-01-01T00:00" }} control={{ id: "confirm" }} editing setValue={vi.fn()} />);
    expect(await screen.findByText("This room keeps no practice questions out of practice.")).toBeInTheDocument();
    expect(screen.queryByRole("checkbox")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
