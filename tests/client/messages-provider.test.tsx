import { setupI18n } from "@lingui/core";
import { useLingui } from "@lingui/react";
import { act, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { MessagesProvider } from "../../src/client/i18n/MessagesProvider.tsx";

let renders = 0;
function Greeting() {
  const { _ } = useLingui();
  renders++;
  return <p>{_({ id: "greeting", message: "Hello" })}</p>;
}

describe("MessagesProvider", () => {
  it("renders the active language's messages, and again only when the language changes", () => {
    const i18n = setupI18n({ locale: "en", messages: { en: { greeting: "Hello" } } });
    renders = 0;
    render(
      <MessagesProvider i18n={i18n}>
        <Greeting />
      </MessagesProvider>,
    );
    expect(screen.getByText("Hello")).toBeTruthy();
    const afterMount = renders;

    // An area catalog merged into the language: nothing on screen needs it, nothing re-renders.
    act(() => i18n.load("en", { farewell: "Goodbye" }));
    expect(renders).toBe(afterMount);
    expect(i18n._("farewell")).toBe("Goodbye");

    // Another language: every message is drawn again in it.
    act(() => {
      i18n.load("zh-cn", { greeting: "你好" });
      i18n.activate("zh-cn");
    });
    expect(screen.getByText("你好")).toBeTruthy();
    expect(renders).toBeGreaterThan(afterMount);
  });
});
