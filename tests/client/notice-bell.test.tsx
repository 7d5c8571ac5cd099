import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type * as ApiModule from "../../src/client/api/index.ts";
import { request } from "../../src/client/api/index.ts";
import NoticeBell from "../../src/client/app/layouts/NoticeBell.tsx";
import { useNotices } from "../../src/client/app/layouts/notices.ts";
import type { NoticeList } from "../../src/shared/notice.ts";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

afterEach(() => {
  vi.mocked(request).mockReset();
  vi.restoreAllMocks();
  localStorage.clear();
  useNotices.setState({ memberId: 0, list: [], unread: 0 }, true);
});

const LIST: NoticeList = {
  unread: 2,
  list: [
    { id: 3, kind: "result", data: { attemptId: 9, title: "Final", score: 42, passed: false }, createTime: 1_767_000_000, readAt: null },
    { id: 2, kind: "room_open", data: { roomId: 5, title: "Final", startTime: 1_766_990_000, endTime: 1_767_100_000 }, createTime: 1_766_990_000, readAt: null },
    { id: 1, kind: "room_closing", data: { roomId: 4, title: "Quiz", endTime: 1_766_900_000 }, createTime: 1_766_800_000, readAt: 1_766_850_000 },
  ],
};

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

const wrap = () =>
  render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter>
        <NoticeBell memberId={7} />
        <Routes>
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </I18nProvider>,
  );

function answer(list: NoticeList) {
  vi.mocked(request).mockImplementation((async (config: { url?: string }) => {
    if (config.url === "/api/notice/list") return { code: 1, msg: "", time: 0, data: list };
    return { code: 1, msg: "", time: 0, data: {} };
  }) as unknown as typeof request);
}

describe("the notices' bell", () => {
  it("shows the unread count in its label (a 44 px button), lists the notices in the reader's language, and a tap reads one and opens its page", async () => {
    answer(LIST);
    wrap();
    const bell = await screen.findByRole("button", { name: "Notices, 2 unread" });
    expect(bell.className).toContain("size-11");
    fireEvent.click(bell);
    const panel = await screen.findByRole("dialog", { name: "Notices" });
    const links = within(panel).getAllByRole("link");
    expect(links.map((l) => l.textContent)).toEqual([
      expect.stringContaining("Your result in “Final”: 42 points, not passed."),
      expect.stringContaining("Exam room “Final” is open: you can sit it now."),
      expect.stringContaining("Exam room “Quiz” closes at"),
    ]);
    expect(links[0]).toHaveAttribute("href", "/exam/examTab/testRecord");
    expect(links[1]).toHaveAttribute("href", "/exam/examTab/officialTest");
    expect(links[0]).toHaveTextContent("(unread)");
    expect(links[2]).not.toHaveTextContent("(unread)");

    fireEvent.click(links[0]!);
    expect(screen.getByTestId("where")).toHaveTextContent("/exam/examTab/testRecord");
    expect(vi.mocked(request)).toHaveBeenCalledWith(expect.objectContaining({ url: "/api/notice/read", method: "post", data: { id: 3 } }), expect.anything());
    expect(await screen.findByRole("button", { name: "Notices, 1 unread" })).toBeInTheDocument();
  });

  it("marks all read", async () => {
    answer(LIST);
    wrap();
    fireEvent.click(await screen.findByRole("button", { name: "Notices, 2 unread" }));
    fireEvent.click(within(await screen.findByRole("dialog", { name: "Notices" })).getByRole("button", { name: "Mark all read" }));
    expect(vi.mocked(request)).toHaveBeenCalledWith(expect.objectContaining({ url: "/api/notice/readAll", method: "post" }), expect.anything());
    expect(await screen.findByRole("button", { name: "Notices" })).toBeInTheDocument();
  });

  it("offline, shows the last list kept on the device without asking the server or showing an error", async () => {
    answer(LIST);
    const first = wrap();
    await screen.findByRole("button", { name: "Notices, 2 unread" });
    first.unmount();
    useNotices.setState({ memberId: 0, list: [], unread: 0 }, true);
    vi.mocked(request).mockReset();
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    wrap();
    await act(async () => undefined);
    expect(screen.getByRole("button", { name: "Notices, 2 unread" })).toBeInTheDocument();
    expect(vi.mocked(request)).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Notices, 2 unread" }));
    expect(within(await screen.findByRole("dialog", { name: "Notices" })).getAllByRole("link")).toHaveLength(3);
  });

  it("with no notices says so, and a failed request leaves the bell as it was", async () => {
    vi.mocked(request).mockRejectedValue(new Error("network"));
    wrap();
    const bell = await screen.findByRole("button", { name: "Notices" });
    fireEvent.click(bell);
    await waitFor(() => expect(screen.getByRole("dialog", { name: "Notices" })).toHaveTextContent("No notices yet."));
  });
});
