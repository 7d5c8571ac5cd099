import type * as VideoUpload from "../../src/client/admin/course/videoUpload.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { MemoryRouter } from "react-router-dom";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { LessonVideo } from "../../src/shared/admin/courses.ts";
import { LessonVideoField } from "../../src/client/admin/course/LessonVideoField.tsx";
import { useNavTabs } from "../../src/client/stores/navTabs.ts";

/** The lesson form's video: shown by the name it was uploaded under, not by its stored (content-named) file. */
vi.mock("../../src/client/admin/course/videoUpload.ts", async (real) => ({
  ...(await real<typeof VideoUpload>()),
  uploadLessonVideo: vi.fn(async () => ({ url: `/storage/course/20260101/${"b".repeat(40)}.webm`, type: "webm", size: 2048, duration: 0, name: "pattern.webm" })),
  readVideoDuration: vi.fn(async () => 12),
}));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => useNavTabs.setState({ authNode: new Map([["/admin/course/lesson", ["/admin/course/lesson/upload"]]]) }));

const sha1Url = `/storage/course/20260101/${"a".repeat(40)}.mp4`;

function Field({ initial, seen }: { initial: LessonVideo | null; seen: (value: unknown) => void }) {
  const [value, setValue] = useState<unknown>(initial);
  return (
    <I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={["/admin/course/lesson"]}>
        <LessonVideoField
          value={value}
          values={{}}
          control={{ id: "video" }}
          editing
          setValue={() => undefined}
          onChange={(next) => {
            seen(next);
            setValue(next);
          }}
        />
      </MemoryRouter>
    </I18nProvider>
  );
}

describe("a lesson's video in its form", () => {
  it("shows the name the video was uploaded under, and its file's name for a video from before names were kept", () => {
    const { unmount } = render(<Field initial={{ url: sha1Url, type: "mp4", size: 10, duration: 5, name: "intro.mp4" }} seen={() => undefined} />);
    expect(screen.getByRole("link", { name: "intro.mp4" }).getAttribute("href")).toBe(sha1Url);
    unmount();
    render(<Field initial={{ url: sha1Url, type: "mp4", size: 10, duration: 5, name: "" }} seen={() => undefined} />);
    expect(screen.getByRole("link", { name: `${"a".repeat(40)}.mp4` })).toBeTruthy();
  });

  it("keeps an upload's original name in the form's value", async () => {
    const seen = vi.fn();
    render(<Field initial={null} seen={seen} />);
    await userEvent.upload(screen.getByTestId("video-input"), new File([new Uint8Array(8)], "pattern.webm", { type: "video/webm" }));
    expect(await screen.findByRole("link", { name: "pattern.webm" })).toBeTruthy();
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ name: "pattern.webm", type: "webm", duration: 12 }));
  });
});
