import { describe, expect, it } from "vitest";
import { WELCOME_BACK, greetingFor } from "../../src/shared/greeting.ts";

// Lingui ids are the macro's hash of the English source (lingui extract uses the same ones).
const LATE = { id: "2GufkQ", message: "It's late at night" };
const MORNING = { id: "WSfN/y", message: "Good morning" };
const FORENOON = { id: "axFhVt", message: "Good forenoon" };
const NOON = { id: "qdZVFM", message: "Good noon" };
const AFTERNOON = { id: "+0C0RQ", message: "Good afternoon" };
const EVENING = { id: "HJmcAM", message: "Good evening" };

describe("greetingFor", () => {
  it.each([
    [0, LATE],
    [1, LATE],
    [2, LATE],
    [3, LATE],
    [4, LATE],
    [5, MORNING],
    [6, MORNING],
    [7, MORNING],
    [8, MORNING],
    [9, FORENOON],
    [10, FORENOON],
    [11, FORENOON],
    [12, NOON],
    [13, NOON],
    [14, AFTERNOON],
    [15, AFTERNOON],
    [16, AFTERNOON],
    [17, AFTERNOON],
    [18, EVENING],
    [19, EVENING],
    [20, EVENING],
    [21, EVENING],
    [22, EVENING],
    [23, EVENING],
  ])("hour %i -> %j", (hour, expected) => {
    expect(greetingFor(hour)).toEqual(expected);
  });

  it.each([[-1], [24], [25], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])("throws a RangeError for %s", (hour) => {
    expect(() => greetingFor(hour)).toThrow(RangeError);
  });
});

describe("WELCOME_BACK", () => {
  it("follows every greeting", () => {
    expect(WELCOME_BACK).toEqual({ id: "J+1IC7", message: "welcome back" });
  });
});
