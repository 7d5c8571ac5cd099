import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import FaceEnrolPage from "../../src/client/features/exam/FaceEnrolPage.tsx";

vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));
// The face detector (a 2 MB model) is not loaded here: the device sees one face.
vi.mock("../../src/client/features/exam/faceDetector.ts", () => ({
  preloadDetector: vi.fn(async () => undefined),
  lookAt: vi.fn(async () => ({ verdict: "one_face", faces: 1 })),
}));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

afterEach(() => {
  vi.mocked(request).mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function open(camera: "none" | "refused") {
  const getUserMedia = vi.fn(async () => {
    throw Object.assign(new Error("camera"), { name: "NotAllowedError" });
  });
  vi.stubGlobal("navigator", Object.assign(Object.create(navigator), { mediaDevices: camera === "none" ? undefined : { getUserMedia } }));
  vi.mocked(request).mockImplementation(async (config) => {
    if (config.method === "get") return { code: 1, msg: "", time: 0, data: { enrolled: false } } as never;
    return { code: 1, msg: "Saved", time: 0, data: null } as never;
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <FaceEnrolPage />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe("FaceEnrolPage", () => {
  it("says there is no camera on this device, not that an exam needs one, and offers a photo instead", async () => {
    open("none");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("No camera was found on this device: choose a photo of your face instead");
    expect(alert).not.toHaveTextContent(/exam/i);
    expect(screen.getByLabelText("Choose a photo")).toHaveAttribute("accept", "image/*");
  });

  it("says how to allow a refused camera, and offers a photo instead", async () => {
    open("refused");
    expect(await screen.findByRole("alert")).toHaveTextContent("The camera was refused: allow this site to use it in the browser's site settings, or choose a photo of your face instead");
    expect(screen.getByRole("button", { name: "Try the camera again" })).toBeInTheDocument();
  });

  it("saves a chosen photo as the reference, as a camera's frame would be", async () => {
    open("none");
    await screen.findByRole("alert");
    const close = vi.fn();
    vi.stubGlobal("createImageBitmap", vi.fn(async () => ({ width: 1280, height: 960, close })));
    vi.spyOn(HTMLCanvasElement.prototype, "toDataURL").mockReturnValue("data:image/jpeg;base64,AAAA");
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], "me.jpg", { type: "image/jpeg" });
    fireEvent.change(screen.getByLabelText("Choose a photo"), { target: { files: [file] } });
    expect(await screen.findByText("Your reference photo is saved.")).toBeInTheDocument();
    const sent = vi.mocked(request).mock.calls.find(([config]) => config.method === "post")?.[0];
    expect(sent).toMatchObject({ url: "/api/user/face", data: { image: "data:image/jpeg;base64,AAAA" } });
    expect(vi.mocked(createImageBitmap)).toHaveBeenCalledWith(file);
    expect(close).toHaveBeenCalled();
    expect(screen.getByRole("img", { name: "The photo taken" })).toHaveAttribute("src", "data:image/jpeg;base64,AAAA");
  });

  it("refuses a file that is not a picture, sending nothing", async () => {
    open("none");
    await screen.findByRole("alert");
    const file = new File(["hello"], "notes.txt", { type: "text/plain" });
    fireEvent.change(screen.getByLabelText("Choose a photo"), { target: { files: [file] } });
    await waitFor(() => expect(screen.getByText("This file could not be read as a picture: choose a photo (JPEG or PNG)")).toBeInTheDocument());
    expect(vi.mocked(request).mock.calls.filter(([config]) => config.method === "post")).toHaveLength(0);
  });
});
