import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { BrowserRouter, Link, Route, Routes } from "react-router-dom";
import { beforeAll, describe, expect, it } from "vitest";
import { BackButton } from "../../src/client/ui/BackButton.tsx";

beforeAll(() => {
  i18n.loadAndActivate({ locale: "en", messages: {} });
});

function app() {
  return render(
    <I18nProvider i18n={i18n}>
      <BrowserRouter>
        <Routes>
          <Route path="/list" element={<Link to="/detail">open</Link>} />
          <Route path="/detail" element={<BackButton to="/home" />} />
          <Route path="/home" element={<p>home screen</p>} />
        </Routes>
      </BrowserRouter>
    </I18nProvider>,
  );
}

describe("BackButton", () => {
  it("goes back to the screen the member came from in the app", async () => {
    window.history.replaceState(null, "", "/list");
    const { unmount } = app();
    const user = userEvent.setup();
    await user.click(screen.getByRole("link", { name: "open" }));
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(await screen.findByRole("link", { name: "open" })).toBeInTheDocument();
    expect(window.location.pathname).toBe("/list");
    unmount();
  });

  it("goes up to the screen above when the app was opened on this one", async () => {
    window.history.replaceState(null, "", "/detail");
    const { unmount } = app();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(await screen.findByText("home screen")).toBeInTheDocument();
    expect(window.location.pathname).toBe("/home");
    unmount();
  });
});
