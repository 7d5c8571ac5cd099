import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { RejectedChanges } from "../../src/client/app/layouts/RejectedChanges.tsx";
import { deleteMemberDb } from "../../src/client/offline/db.ts";
import { startOffline, stopOffline } from "../../src/client/offline/index.ts";

// No network here: the sync engine's calls fail like a dropped connection, so nothing is sent.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: () => Promise.reject(new Error("Network Error")) }));

const memberId = 4242;

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

afterEach(async () => {
  stopOffline();
  await deleteMemberDb(memberId);
});

describe("changes the server did not accept", () => {
  it("lists them with the server's reason and lets the member dismiss them, one or all", async () => {
    const db = await act(async () => startOffline(memberId));
    const at = Date.UTC(2026, 10, 1, 8, 30);
    await db.outbox.bulkAdd([
      { id: "a".repeat(8) + "-0000-4000-8000-000000000001", type: "practice.answer", at, payload: { questionId: 9, bankId: 2, answer: "A" }, status: "rejected", msg: "Unknown question", tries: 1 },
      { id: "a".repeat(8) + "-0000-4000-8000-000000000002", type: "favourite.set", at, payload: { questionId: 9, on: true }, status: "pending", tries: 0 },
      { id: "a".repeat(8) + "-0000-4000-8000-000000000003", type: "lesson.progress", at, payload: { lessonId: 3, position: 5, completed: false }, status: "rejected", msg: "Not enrolled", tries: 1 },
      { id: "a".repeat(8) + "-0000-4000-8000-000000000004", type: "wrong.remove", at, payload: { questionId: 9 }, status: "rejected", msg: "Unknown question", tries: 1 },
    ]);
    render(
      <I18nProvider i18n={i18n}>
        <RejectedChanges />
      </I18nProvider>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "3 changes not accepted by the server" }));
    const panel = await screen.findByRole("dialog", { name: "Changes the server did not accept" });
    const items = within(panel).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringContaining("Practice answer"),
      expect.stringContaining("Lesson progress"),
      expect.stringContaining("Removal from the wrong-question book"),
    ]);
    expect(items[1]).toHaveTextContent("Reason: Not enrolled");

    await user.click(within(items[1]!).getByRole("button", { name: "Dismiss" }));
    await waitFor(() => expect(within(panel).getAllByRole("listitem")).toHaveLength(2));
    expect(await db.outbox.where("status").equals("rejected").count()).toBe(2);

    await user.click(within(panel).getByRole("button", { name: "Dismiss all" }));
    await waitFor(() => expect(screen.queryByRole("button", { name: /not accepted/ })).toBeNull());
    // Only rejected ops go: the pending one is still queued.
    expect((await db.outbox.toArray()).map((r) => r.status)).toEqual(["pending"]);
  });

  it("shows a change set aside because the server kept failing on it, and sends it again on request", async () => {
    const db = await act(async () => startOffline(memberId));
    const at = Date.UTC(2026, 10, 1, 8, 30);
    const id = "b".repeat(8) + "-0000-4000-8000-000000000001";
    await db.outbox.bulkAdd([
      { id, type: "practice.answer", at, payload: { questionId: 9, bankId: 2, answer: "A" }, status: "rejected", setAside: true, failures: 3, msg: "HTTP 500", tries: 9 },
      { id: "b".repeat(8) + "-0000-4000-8000-000000000002", type: "favourite.set", at, payload: { questionId: 9, on: true }, status: "rejected", msg: "Unknown question", tries: 1 },
    ]);
    render(
      <I18nProvider i18n={i18n}>
        <RejectedChanges />
      </I18nProvider>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "2 changes not accepted by the server" }));
    const panel = await screen.findByRole("dialog", { name: "Changes the server did not accept" });
    const [aside, rejected] = within(panel).getAllByRole("listitem");
    expect(aside).toHaveTextContent("Set aside: the server kept failing on this change (HTTP 500), so the rest was synced without it.");
    // Only a set-aside change can be sent again: the server answered the rejected one.
    expect(within(rejected!).queryByRole("button", { name: "Send again" })).toBeNull();
    await user.click(within(aside!).getByRole("button", { name: "Send again" }));
    await waitFor(() => expect(within(panel).getAllByRole("listitem")).toHaveLength(1));
    expect(await db.outbox.where("id").equals(id).first()).toMatchObject({ status: "pending", failures: 0 });
    expect((await db.outbox.where("id").equals(id).first())?.setAside).toBeUndefined();
  });
});
