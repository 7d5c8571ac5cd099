import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AxiosRequestConfig } from "axios";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import attachments from "../../src/client/admin/routine/attachments.tsx";
import { envelope, renderScreen } from "./crud-example.tsx";

/** The attachments screen's definition: thumbnails that open the previewer, file-type icons, sizes, uploaders, uses. */
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const none = { attachment: 0, admin: 0, member: 0, course: 0, lesson: 0, question: 0 };
const rows = [
  { id: 1, name: "cover.png", url: "/storage/course/20260101/a.png", mimetype: "image/png", size: 1536, admin_id: 1, admin_username: "root", user_id: null, topic: "course", quote: 2, uses: { ...none, course: 1 }, last_upload_time: 1_700_000_000 },
  { id: 3, name: `${"a very long lesson recording name ".repeat(4)}.webm`, url: "/storage/course/hls/c/index.m3u8", mimetype: "application/vnd.apple.mpegurl", size: 10, admin_id: 1, admin_username: "root", user_id: null, topic: "course/hls", quote: 1, uses: { ...none, lesson: 1 }, last_upload_time: 1_700_000_050 },
  { id: 4, name: "plugin.bin", url: "/storage/mod_x/20260101/d.bin", mimetype: "application/octet-stream", size: 10, admin_id: 1, admin_username: "root", user_id: null, topic: "mod_x", quote: 1, uses: none, last_upload_time: 1_700_000_060 },
  { id: 2, name: "outline.pdf", url: "/storage/default/20260101/b.pdf", mimetype: "application/pdf", size: 3 * 1024 * 1024, admin_id: null, user_id: 5, user_username: "amy", topic: "default", quote: 1, uses: none, last_upload_time: 1_700_000_100 },
];

beforeEach(() => {
  vi.mocked(request).mockImplementation((async (config: AxiosRequestConfig) => (config.url === "/admin/routine/attachment/index" ? envelope({ list: rows, total: rows.length }) : envelope(null))) as never);
});
afterEach(() => vi.mocked(request).mockReset());

describe("the attachments screen", () => {
  it("shows each upload with its preview or type icon, size, uploader and uses, newest upload first", async () => {
    renderScreen(attachments);
    const image = await screen.findByRole("button", { name: "Preview cover.png" });
    const imageRow = image.closest("tr")!;
    expect(within(imageRow).getByText("1.5 KB")).toBeTruthy();
    expect(within(imageRow).getByText("Administrator")).toBeTruthy();
    expect(within(imageRow).getByText("1 course")).toBeTruthy();
    const fileRow = screen.getByText("outline.pdf").closest("tr")!;
    expect(within(fileRow).getByRole("link", { name: "Open outline.pdf" }).querySelector("img")!.getAttribute("src")).toBe("/api/ajax/buildSuffixSvg?suffix=pdf");
    expect(within(fileRow).getByText("3.0 MB")).toBeTruthy();
    expect(within(fileRow).getByText("Member")).toBeTruthy();
    expect(within(fileRow).getByText("Not used")).toBeTruthy();
    const listCall = vi.mocked(request).mock.calls.map(([c]) => c as AxiosRequestConfig).find((c) => c.url === "/admin/routine/attachment/index")!;
    expect((listCall.params as Record<string, unknown>).order).toBe("last_upload_time,desc");
    // No add or edit: the screen is read-only apart from delete.
    expect(screen.queryByRole("button", { name: "Add" })).toBeNull();
    await userEvent.click(image);
    expect(await screen.findByRole("button", { name: "Close preview" })).toBeTruthy();
    await userEvent.keyboard("{Escape}");
  });

  it("names each topic as staff read it (a module's own topic as it is) and cuts long names to one line with the whole name as the tooltip", async () => {
    renderScreen(attachments);
    const imageRow = (await screen.findByRole("button", { name: "Preview cover.png" })).closest("tr")!;
    expect(within(imageRow).getByText("Course")).toBeTruthy();
    expect(within(imageRow).queryByText("course")).toBeNull();
    expect(within(screen.getByText("outline.pdf").closest("tr")!).getByText("General")).toBeTruthy();
    expect(within(screen.getByText("plugin.bin").closest("tr")!).getByText("mod_x")).toBeTruthy();
    const long = rows[1]!.name;
    const name = screen.getByText(long);
    expect(name.getAttribute("title")).toBe(long);
    expect(name.className).toContain("truncate");
    const videoRow = name.closest("tr")!;
    expect(within(videoRow).getByText("Lesson video (HLS)")).toBeTruthy();
    expect(within(videoRow).getByText("application/vnd.apple.mpegurl").className).toContain("truncate");
  });
});
