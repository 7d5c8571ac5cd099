import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { render, renderHook, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { ChannelChoice } from "../../src/client/features/auth/ChannelChoice.tsx";
import { useIdParam } from "../../src/client/routing/routeState.ts";
import { alignedZeroRanges } from "../../src/client/ui/chartTheme.ts";
import { ruled } from "../../src/client/ui/form/rules.ts";
import { validatePassword } from "../../src/shared/validation.ts";

describe("ChannelChoice", () => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
  const inEnglish = ({ children }: { children: ReactNode }) => <I18nProvider i18n={i18n}>{children}</I18nProvider>;

  it("offers each channel as a radio in a named group and hands on the one chosen", async () => {
    const chosen = vi.fn();
    render(<ChannelChoice label="Register with" name="register-type" types={["email", "mobile"]} value="email" onChange={chosen} />, { wrapper: inEnglish });
    expect(screen.getByRole("radiogroup", { name: "Register with" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Email" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "Mobile" })).not.toBeChecked();
    await userEvent.click(screen.getByRole("radio", { name: "Mobile" }));
    expect(chosen).toHaveBeenCalledWith("mobile");
  });

  it("asks nothing when the site offers one channel", () => {
    render(<ChannelChoice label="Retrieve by" name="retrieve-type" types={["mobile"]} value="mobile" onChange={() => {}} />, { wrapper: inEnglish });
    expect(screen.queryByRole("radiogroup")).toBeNull();
  });
});

describe("ruled", () => {
  it("holds a field to a shared rule and refuses it with the rule's own message, in the words the translator gives", () => {
    const field = ruled(validatePassword, (m) => `[${i18n._(m)}]`);
    expect(field.safeParse("abc<def1").error?.issues.map((issue) => issue.message)).toEqual(["[A password is 6 to 32 characters, without & < > \" or ']"]);
    expect(field.safeParse("good-one1").success).toBe(true);
  });
});

describe("useIdParam", () => {
  const at = (entry: string) => ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[entry]}>{children}</MemoryRouter>;

  it("reads a whole number above zero from the query", () => {
    expect(renderHook(() => useIdParam(), { wrapper: at("/course/lesson?id=12") }).result.current).toEqual({ id: 12, valid: true });
    expect(renderHook(() => useIdParam("room"), { wrapper: at("/x?room=7") }).result.current).toEqual({ id: 7, valid: true });
  });

  it("is not valid when the id is missing, zero, negative or not a whole number", () => {
    for (const entry of ["/course/lesson", "/course/lesson?id=0", "/course/lesson?id=-3", "/course/lesson?id=1.5", "/course/lesson?id=abc"]) {
      expect(renderHook(() => useIdParam(), { wrapper: at(entry) }).result.current.valid).toBe(false);
    }
  });
});

describe("alignedZeroRanges", () => {
  const zeroAt = (r: { min: number; max: number }) => -r.min / (r.max - r.min);

  it("puts both axes' zero at the same height, each axis still spanning its values", () => {
    const points = [0, 50, 0, -20, 0, 0, 100];
    const money = [80, 0, -40, 0, 0, 20, 0];
    const [p, m] = alignedZeroRanges(points, money);
    expect(zeroAt(p)).toBeCloseTo(zeroAt(m), 10);
    expect(p.min).toBeLessThanOrEqual(-20);
    expect(p.max).toBeGreaterThanOrEqual(100);
    expect(m.min).toBeLessThanOrEqual(-40);
    expect(m.max).toBeGreaterThanOrEqual(80);
    // Money has the larger share below zero (40 of 120): points get the same share.
    expect(zeroAt(m)).toBeCloseTo(1 / 3, 10);
  });

  it("starts both at zero when nothing went down, and gives an empty week a range", () => {
    expect(alignedZeroRanges([0, 5, 10], [0, 0, 0])).toEqual([{ min: 0, max: 10 }, { min: 0, max: 1 }]);
    // One series only down, the other only up: zero in the middle, both in view.
    const [p, m] = alignedZeroRanges([-5, 0], [0, 30]);
    expect(p).toEqual({ min: -5, max: 5 });
    expect(m).toEqual({ min: -30, max: 30 });
  });
});
