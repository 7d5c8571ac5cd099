import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import ScreenshotGallery from "../../src/client/app/pages/ScreenshotGallery.tsx";
import { ImagePreviewer } from "../../src/client/ui/previewer/ImagePreviewer.tsx";
import { previewImages } from "../../src/client/ui/previewer/previewImages.tsx";
import {
  ROTATE_STEP,
  THUMB_LEAD,
  ZOOM_MAX,
  ZOOM_MIN,
  ZOOM_STEP,
  clampIndex,
  clampZoom,
  imageTransform,
  initialState,
  previewReducer,
  rotate,
  stepZoom,
  thumbnailScrollTarget,
  type PreviewAction,
  type PreviewState,
} from "../../src/client/ui/previewer/state.ts";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

function apply(state: PreviewState, ...actions: PreviewAction[]): PreviewState {
  return actions.reduce(previewReducer, state);
}

describe("previewer state", () => {
  it("has the SPEC §9 constants", () => {
    expect({ ZOOM_MIN, ZOOM_MAX, ZOOM_STEP, ROTATE_STEP, THUMB_LEAD }).toEqual({
      ZOOM_MIN: 0.5,
      ZOOM_MAX: 4,
      ZOOM_STEP: 0.1,
      ROTATE_STEP: 90,
      THUMB_LEAD: 4,
    });
  });

  it.each([
    { from: 1, direction: 1, to: 1.1 },
    { from: 1.1, direction: 1, to: 1.2 },
    { from: 1.2, direction: 1, to: 1.3 },
    { from: 0.7, direction: 1, to: 0.8 },
    { from: 0.3 + 0.6, direction: 1, to: 1 }, // 0.8999999999999999 in, 1 out
    { from: 1, direction: -1, to: 0.9 },
    { from: 0.6, direction: -1, to: 0.5 },
    { from: 0.5, direction: -1, to: 0.5 },
    { from: 3.9, direction: 1, to: 4 },
    { from: 4, direction: 1, to: 4 },
    { from: 4, direction: -1, to: 3.9 },
  ] as const)("steps zoom $from by $direction to $to", ({ from, direction, to }) => {
    expect(stepZoom(from, direction)).toBe(to);
  });

  it.each([
    { zoom: 0, clamped: 0.5 },
    { zoom: -3, clamped: 0.5 },
    { zoom: 0.49, clamped: 0.5 },
    { zoom: 1.04, clamped: 1 },
    { zoom: 4.01, clamped: 4 },
    { zoom: 100, clamped: 4 },
    { zoom: Number.NaN, clamped: 1 },
  ])("clamps zoom $zoom to $clamped", ({ zoom, clamped }) => {
    expect(clampZoom(zoom)).toBe(clamped);
  });

  it("walks 1.0 -> 4 and back to 0.5 in exact 0.1 steps, never beyond", () => {
    let state = initialState(0, 1);
    const seen: number[] = [];
    for (let i = 0; i < 40; i++) {
      state = previewReducer(state, { type: "zoomIn" });
      seen.push(state.zoom);
    }
    const expectedUp = Array.from({ length: 30 }, (_, i) => Number((1.1 + i * 0.1).toFixed(1)));
    expect(seen.slice(0, 30)).toEqual(expectedUp);
    expect(seen.slice(30)).toEqual(Array(10).fill(4));

    seen.length = 0;
    for (let i = 0; i < 40; i++) {
      state = previewReducer(state, { type: "zoomOut" });
      seen.push(state.zoom);
    }
    expect(seen.slice(0, 35)).toEqual(Array.from({ length: 35 }, (_, i) => Number((3.9 - i * 0.1).toFixed(1))));
    expect(seen.slice(35)).toEqual(Array(5).fill(0.5));
    expect(Math.min(...seen)).toBe(0.5);
  });

  it.each([
    { actions: ["rotateRight"], rotation: 90 },
    { actions: ["rotateRight", "rotateRight"], rotation: 180 },
    { actions: ["rotateRight", "rotateRight", "rotateRight", "rotateRight", "rotateRight"], rotation: 450 },
    { actions: ["rotateLeft"], rotation: -90 },
    { actions: ["rotateLeft", "rotateLeft", "rotateLeft"], rotation: -270 },
    { actions: ["rotateLeft", "rotateRight"], rotation: 0 },
  ] as const)("rotates by ±90 and accumulates: $actions -> $rotation", ({ actions, rotation }) => {
    const state = apply(initialState(0, 1), ...actions.map((type) => ({ type })));
    expect(state.rotation).toBe(rotation);
  });

  it("rotate() is one ROTATE_STEP per call", () => {
    expect(rotate(0, 1)).toBe(90);
    expect(rotate(0, -1)).toBe(-90);
  });

  it.each([
    { index: 0, target: 0 },
    { index: 1, target: 0 },
    { index: 4, target: 0 },
    { index: 5, target: 1 },
    { index: 9, target: 5 },
    { index: 20, target: 16 },
  ])("thumbnail strip target for $index is $target (max(0, i - 4))", ({ index, target }) => {
    expect(thumbnailScrollTarget(index)).toBe(target);
  });

  it.each([
    { index: -1, count: 3, clamped: 0 },
    { index: 0, count: 3, clamped: 0 },
    { index: 2, count: 3, clamped: 2 },
    { index: 3, count: 3, clamped: 2 },
    { index: 99, count: 3, clamped: 2 },
    { index: 1.7, count: 3, clamped: 1 },
    { index: Number.NaN, count: 3, clamped: 0 },
    { index: 5, count: 0, clamped: 0 },
  ])("clamps index $index in $count to $clamped", ({ index, count, clamped }) => {
    expect(clampIndex(index, count)).toBe(clamped);
  });

  it("clamps prev/next at the ends instead of wrapping", () => {
    expect(apply(initialState(0, 3), { type: "prev" }).index).toBe(0);
    expect(apply(initialState(2, 3), { type: "next", count: 3 }).index).toBe(2);
    expect(apply(initialState(0, 3), { type: "next", count: 3 }, { type: "next", count: 3 }).index).toBe(2);
    expect(apply(initialState(1, 3), { type: "go", index: 10, count: 3 }).index).toBe(2);
  });

  it("reset restores zoom, rotation and drag offset; a new image starts reset", () => {
    const moved = apply(
      initialState(0, 3),
      { type: "zoomIn" },
      { type: "rotateLeft" },
      { type: "move", x: 30, y: -12 },
    );
    expect(moved).toMatchObject({ zoom: 1.1, rotation: -90, x: 30, y: -12 });
    expect(imageTransform(moved)).toBe("translate(30px, -12px) rotate(-90deg) scale(1.1)");
    expect(apply(moved, { type: "reset" })).toEqual({ index: 0, zoom: 1, rotation: 0, x: 0, y: 0 });
    expect(apply(moved, { type: "next", count: 3 })).toEqual({ index: 1, zoom: 1, rotation: 0, x: 0, y: 0 });
  });
});

const IMAGES = ["/a.png", "/b.png", "/c.png"];

function Controlled({ images = IMAGES, index, onOpenChange }: { images?: string[]; index?: number; onOpenChange: (open: boolean) => void }) {
  const [open, setOpen] = useState(true);
  return (
    <I18nProvider i18n={i18n}>
      <ImagePreviewer
        images={images}
        index={index}
        open={open}
        onOpenChange={(next) => {
          onOpenChange(next);
          setOpen(next);
        }}
      />
    </I18nProvider>
  );
}

function renderPreviewer(props: { images?: string[]; index?: number } = {}) {
  const onOpenChange = vi.fn();
  const user = userEvent.setup();
  render(<Controlled {...props} onOpenChange={onOpenChange} />);
  const dialog = screen.getByRole("dialog", { name: "Image preview" });
  return { dialog, onOpenChange, user };
}

const zoomText = () => screen.getByRole("status", { name: "Zoom level" }).textContent;
const image = () => within(screen.getByRole("dialog")).getByRole("img", { name: /^Image \d+ of \d+$/ });

describe("ImagePreviewer", () => {
  it("is a labelled dialog describing the position, with focus inside", () => {
    const { dialog } = renderPreviewer({ index: 1 });
    expect(dialog).toHaveAccessibleDescription("Image 2 of 3");
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(image()).toHaveAttribute("src", "/b.png");
    expect(zoomText()).toBe("100%");
    for (const button of within(dialog).getAllByRole("button")) expect(button).toHaveAccessibleName();
  });

  it("clamps an out-of-range starting index", () => {
    const { dialog } = renderPreviewer({ index: 7 });
    expect(dialog).toHaveAccessibleDescription("Image 3 of 3");
  });

  it("ArrowLeft/ArrowRight change the counter and stop at the ends", async () => {
    const { dialog, user } = renderPreviewer();
    expect(dialog).toHaveTextContent("Image 1 of 3");
    await user.keyboard("{ArrowRight}");
    expect(dialog).toHaveTextContent("Image 2 of 3");
    await user.keyboard("{ArrowRight}{ArrowRight}{ArrowRight}");
    expect(dialog).toHaveTextContent("Image 3 of 3");
    expect(image()).toHaveAttribute("src", "/c.png");
    await user.keyboard("{ArrowLeft}");
    expect(dialog).toHaveTextContent("Image 2 of 3");
    await user.keyboard("{ArrowLeft}{ArrowLeft}");
    expect(dialog).toHaveTextContent("Image 1 of 3");
  });

  it("disables previous at the first image and next at the last", async () => {
    const { user } = renderPreviewer();
    const prev = screen.getByRole("button", { name: "Previous image" });
    const next = screen.getByRole("button", { name: "Next image" });
    expect(prev).toBeDisabled();
    expect(next).toBeEnabled();
    await user.click(next);
    expect(prev).toBeEnabled();
    expect(next).toBeEnabled();
    await user.click(next);
    expect(screen.getByRole("dialog")).toHaveTextContent("Image 3 of 3");
    expect(next).toBeDisabled();
    expect(prev).toHaveFocus(); // focus leaves the disabled button but stays inside
  });

  it("keys +, = and - zoom within 50%..400%, 0 resets zoom, rotation and offset", async () => {
    const { user } = renderPreviewer();
    await user.keyboard("+");
    expect(zoomText()).toBe("110%");
    await user.keyboard("=");
    expect(zoomText()).toBe("120%");
    await user.keyboard("{+>40/}");
    expect(zoomText()).toBe("400%");
    await user.keyboard("{->60/}");
    expect(zoomText()).toBe("50%");
    await user.click(screen.getByRole("button", { name: "Rotate right" }));
    await user.click(screen.getByRole("button", { name: "Rotate right" }));
    await user.click(screen.getByRole("button", { name: "Rotate left" }));
    expect(image().style.transform).toBe("translate(0px, 0px) rotate(90deg) scale(0.5)");
    await user.keyboard("0");
    expect(zoomText()).toBe("100%");
    expect(image().style.transform).toBe("translate(0px, 0px) rotate(0deg) scale(1)");
  });

  it("zoom buttons, reset button and the mouse wheel", async () => {
    const { user } = renderPreviewer();
    await user.click(screen.getByRole("button", { name: "Zoom in" }));
    await user.click(screen.getByRole("button", { name: "Zoom in" }));
    expect(zoomText()).toBe("120%");
    await user.click(screen.getByRole("button", { name: "Zoom out" }));
    expect(zoomText()).toBe("110%");
    const mask = document.querySelector<HTMLElement>("[data-previewer-mask]")!;
    fireEvent.wheel(mask, { deltaY: -100 });
    expect(zoomText()).toBe("120%");
    fireEvent.wheel(mask, { deltaY: 100 });
    fireEvent.wheel(mask, { deltaY: 100 });
    expect(zoomText()).toBe("100%");
    await user.click(screen.getByRole("button", { name: "Zoom in" }));
    await user.click(screen.getByRole("button", { name: "Reset zoom" }));
    expect(zoomText()).toBe("100%");
  });

  it("drags the image with pointer events", () => {
    renderPreviewer();
    const img = image();
    fireEvent.pointerDown(img, { pointerId: 1, button: 0, clientX: 10, clientY: 10 });
    fireEvent.pointerMove(img, { pointerId: 1, clientX: 40, clientY: 5 });
    fireEvent.pointerUp(img, { pointerId: 1, clientX: 40, clientY: 5 });
    expect(img.style.transform).toBe("translate(30px, -5px) rotate(0deg) scale(1)");
    fireEvent.pointerMove(img, { pointerId: 1, clientX: 90, clientY: 90 }); // not dragging any more
    expect(img.style.transform).toBe("translate(30px, -5px) rotate(0deg) scale(1)");
  });

  it("Esc closes through onOpenChange(false)", async () => {
    const { onOpenChange, user } = renderPreviewer();
    await user.keyboard("{Escape}");
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("a click on the mask closes, a click on the image or the toolbar does not", async () => {
    const { onOpenChange, user } = renderPreviewer();
    await user.click(image());
    await user.click(screen.getByRole("button", { name: "Rotate left" }));
    await user.click(screen.getByRole("status", { name: "Zoom level" }));
    await user.click(screen.getByText("Image 1 of 3"));
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByRole("dialog")).toBeInTheDocument();

    await user.click(document.querySelector<HTMLElement>("[data-previewer-mask]")!);
    expect(onOpenChange).toHaveBeenCalledExactlyOnceWith(false);
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("the close button closes", async () => {
    const { onOpenChange, user } = renderPreviewer();
    await user.click(screen.getByRole("button", { name: "Close preview" }));
    expect(onOpenChange).toHaveBeenCalledExactlyOnceWith(false);
  });

  it("thumbnails: current one marked, a click shows that image", async () => {
    const { dialog, user } = renderPreviewer();
    const thumbs = within(screen.getByRole("list", { name: "Thumbnails" })).getAllByRole("button");
    expect(thumbs.map((b) => b.getAttribute("aria-label"))).toEqual(["Show image 1", "Show image 2", "Show image 3"]);
    expect(thumbs[0]).toHaveAttribute("aria-current", "true");
    await user.click(thumbs[2]!);
    expect(dialog).toHaveTextContent("Image 3 of 3");
    expect(thumbs[2]).toHaveAttribute("aria-current", "true");
    expect(thumbs[0]).not.toHaveAttribute("aria-current");
  });

  it("scrolls the thumbnail strip to the item 4 before the current one", async () => {
    const images = Array.from({ length: 10 }, (_, i) => `/img-${i}.png`);
    const scrollTo = vi.fn();
    const original = HTMLElement.prototype.scrollTo;
    HTMLElement.prototype.scrollTo = scrollTo as typeof HTMLElement.prototype.scrollTo;
    const offsetLeft = vi.spyOn(HTMLElement.prototype, "offsetLeft", "get").mockImplementation(function (this: HTMLElement) {
      const items = this.parentElement ? Array.from(this.parentElement.children) : [];
      return this.tagName === "LI" ? 16 + items.indexOf(this) * 64 : 0;
    });
    try {
      const { user } = renderPreviewer({ images, index: 7 });
      expect(scrollTo).toHaveBeenLastCalledWith(expect.objectContaining({ left: (7 - 4) * 64 }));
      await user.keyboard("{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowLeft}");
      expect(scrollTo).toHaveBeenLastCalledWith(expect.objectContaining({ left: 0 }));
    } finally {
      offsetLeft.mockRestore();
      HTMLElement.prototype.scrollTo = original;
    }
  });
});

describe("previewImages", () => {
  it("throws without arguments or with an empty list", () => {
    // @ts-expect-error -- the call without arguments is what is tested
    expect(() => previewImages()).toThrow(new Error("previewImages needs an image list"));
    expect(() => previewImages([])).toThrow(new Error("previewImages needs an image list"));
    expect(() => previewImages({ images: [] })).toThrow(new Error("previewImages needs an image list"));
  });

  it("throws when given an index but no list", () => {
    // @ts-expect-error -- an index in place of the list is what is tested
    expect(() => previewImages(2)).toThrow(new Error("previewImages got an index but no image list"));
    // @ts-expect-error -- no list, only an index
    expect(() => previewImages({ index: 1 })).toThrow(new Error("previewImages got an index but no image list"));
  });

  it("mounts a previewer in its own root, clamps the index, and unmounts when closed", async () => {
    const user = userEvent.setup();
    let close = () => {};
    act(() => {
      close = previewImages(IMAGES, 99);
    });
    const dialog = screen.getByRole("dialog", { name: "Image preview" });
    expect(dialog).toHaveAccessibleDescription("Image 3 of 3");
    expect(document.querySelector("[data-image-previewer]")).not.toBeNull();

    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(document.querySelector("[data-image-previewer]")).toBeNull());

    act(() => {
      close = previewImages({ images: IMAGES, index: 1 });
    });
    expect(screen.getByRole("dialog")).toHaveAccessibleDescription("Image 2 of 3");
    act(() => close());
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(document.querySelector("[data-image-previewer]")).toBeNull());
    expect(() => close()).not.toThrow(); // closing twice is harmless
  });
});

describe("ScreenshotGallery", () => {
  it("opens the clicked screenshot in the previewer", async () => {
    const user = userEvent.setup();
    render(
      <I18nProvider i18n={i18n}>
        <ScreenshotGallery />
      </I18nProvider>,
    );
    expect(screen.getByRole("heading", { name: "See the app" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Open screenshot 2" }));
    const dialog = await screen.findByRole("dialog", { name: "Image preview" });
    expect(dialog).toHaveAccessibleDescription("Image 2 of 2");
    expect(image()).toHaveAttribute("src", "/screenshots/phone-zh-cn.png");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(screen.getByRole("button", { name: "Open screenshot 2" })).toHaveFocus());
  });
});
