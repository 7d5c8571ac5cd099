import { i18n } from "@lingui/core";
import { render } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { bankWithheldCell, paperMockCell } from "../../src/client/admin/exam/withholdingCells.tsx";
import { formatTime } from "../../src/shared/time.ts";

/** The papers and banks screens' notes on what exams keep from practice. */

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

const cell = (node: ReturnType<typeof paperMockCell>) => {
  const { container, unmount } = render(<div>{node}</div>);
  const text = container.textContent;
  unmount();
  return text;
};

describe("withholding notes", () => {
  it("says why a paper is not a mock paper now", () => {
    const until = 1_900_000_000;
    expect(cell(paperMockCell({ id: 1, withholding: { mock: true, rooms: [], examOnly: false } }))).toBe("Offered as a mock paper");
    expect(cell(paperMockCell({ id: 1, withholding: { mock: false, rooms: [{ title: "Final", until }], examOnly: false } }))).toBe(
      `Kept for the exam “Final” until ${formatTime(until)}: not a mock paper until then`,
    );
    expect(cell(paperMockCell({ id: 1, withholding: { mock: false, rooms: [{ title: "Final", until }, { title: "Resit", until: until + 60 }], examOnly: false } }))).toContain("(and 1 more)");
    expect(cell(paperMockCell({ id: 1, withholding: { mock: false, rooms: [], examOnly: true } }))).toBe("Holds exam-only questions: never a mock paper");
    expect(cell(paperMockCell({ id: 1, withholding: { mock: false, rooms: [], examOnly: false } }))).toContain("Shares questions an exam keeps");
  });

  it("counts a practice bank's kept questions, and says nothing for exam-only banks or none kept", () => {
    const until = 1_900_000_000;
    expect(cell(bankWithheldCell({ id: 1, kind: "practice", withheld: { count: 2, until } }))).toBe(`2 questions kept out of practice by exams until ${formatTime(until)}`);
    expect(cell(bankWithheldCell({ id: 1, kind: "practice", withheld: { count: 1, until } }))).toContain("1 question kept");
    expect(cell(bankWithheldCell({ id: 1, kind: "exam", withheld: { count: 2, until } }))).toBe("–");
    expect(cell(bankWithheldCell({ id: 1, kind: "practice", withheld: null }))).toBe("–");
  });
});
