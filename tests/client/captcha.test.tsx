import type * as ApiModule from "../../src/client/api/index.ts";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { render, screen } from "@testing-library/react";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { request } from "../../src/client/api/index.ts";
import { ClickCaptcha } from "../../src/client/features/auth/ClickCaptcha.tsx";
import { clickFraction, formatClickInfo, toRendered } from "../../src/client/features/auth/clickInfo.ts";

// Only the render test below uses it: no network in client tests.
vi.mock("../../src/client/api/index.ts", async (real) => ({ ...(await real<typeof ApiModule>()), request: vi.fn() }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

describe("formatClickInfo (API.md checkClickCaptcha info)", () => {
  it.each([
    { points: [{ x: 10, y: 20 }, { x: 30, y: 40 }], w: 350, h: 200, info: "10,20-30,40;350;200" },
    { points: [{ x: 10.123, y: 20.456 }, { x: 30.005, y: 40 }], w: 175.5, h: 100.25, info: "10.12,20.46-30.01,40;175.5;100.25" },
    { points: [{ x: 5, y: 6 }], w: 350, h: 200, info: "5,6;350;200" },
    { points: [], w: 350, h: 200, info: ";350;200" },
  ])("formats $info", ({ points, w, h, info }) => {
    expect(formatClickInfo(points, w, h)).toBe(info);
  });

  it("keeps the points inside the displayed image", () => {
    expect(formatClickInfo([{ x: -3, y: 250 }, { x: 400, y: -0.4 }], 350, 200)).toBe("0,200-350,0;350;200");
  });

  it("keeps the click order", () => {
    const a = { x: 1, y: 2 };
    const b = { x: 3, y: 4 };
    expect(formatClickInfo([b, a], 350, 200)).toBe("3,4-1,2;350;200");
  });
});

describe("clickFraction and toRendered", () => {
  const rect = { left: 100, top: 50, width: 175, height: 100 };

  it("turns a click into fractions of the displayed image", () => {
    expect(clickFraction(100, 50, rect)).toEqual({ x: 0, y: 0 });
    expect(clickFraction(275, 150, rect)).toEqual({ x: 1, y: 1 });
    expect(clickFraction(187.5, 75, rect)).toEqual({ x: 0.5, y: 0.25 });
  });

  it("clamps clicks on the border and survives a zero-sized image", () => {
    expect(clickFraction(90, 40, rect)).toEqual({ x: 0, y: 0 });
    expect(clickFraction(500, 500, rect)).toEqual({ x: 1, y: 1 });
    expect(clickFraction(10, 10, { left: 0, top: 0, width: 0, height: 0 })).toEqual({ x: 0, y: 0 });
  });

  it("maps fractions to the size shown when the last click was made", () => {
    const fractions = [clickFraction(187.5, 75, rect), clickFraction(275, 150, rect)];
    expect(toRendered(fractions, 350, 200)).toEqual([
      { x: 175, y: 50 },
      { x: 350, y: 200 },
    ]);
    expect(formatClickInfo(toRendered(fractions, 175, 100), 175, 100)).toBe("87.5,25-175,100;175;100");
  });
});

describe("ClickCaptcha dialog", () => {
  it("shows its title and the characters to click when open, nothing when closed", async () => {
    vi.mocked(request).mockResolvedValue({
      code: 1,
      msg: "",
      time: 0,
      data: { id: "x", text: ["A", "7"], base64: "data:image/png;base64,iVBORw0KGgo=", width: 350, height: 200 },
    } as never);
    const props = { onOpenChange: vi.fn(), onSuccess: vi.fn() };
    const { rerender } = render(
      <I18nProvider i18n={i18n}>
        <ClickCaptcha open={false} {...props} />
      </I18nProvider>,
    );
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(request).not.toHaveBeenCalled();

    rerender(
      <I18nProvider i18n={i18n}>
        <ClickCaptcha open {...props} />
      </I18nProvider>,
    );
    const dialog = await screen.findByRole("dialog", { name: "Security check" });
    expect(dialog).toBeInTheDocument();
    expect(await screen.findByText("Please click in order: A 7")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Captcha image: click the characters in order" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Refresh" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Close" })).toBeInTheDocument();
    const call = vi.mocked(request).mock.calls[0]?.[0];
    expect(call).toMatchObject({ url: "/api/common/clickCaptcha", method: "get" });
    expect((call?.params as { id: string }).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(props.onSuccess).not.toHaveBeenCalled();
  });
});
