import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, useLocation } from "react-router-dom";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { SideMenu } from "../../src/client/admin/SideMenu.tsx";
import type { MenuRule } from "../../src/client/routing/menus.ts";
import { menuProblem, NAVIGATION_MESSAGES } from "../../src/client/routing/navigation.ts";
import { toast } from "../../src/client/ui/toast.ts";

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));

const rule = (over: Partial<MenuRule>): MenuRule => ({
  id: 1,
  pid: 0,
  type: "menu",
  title: "",
  name: "",
  path: "",
  icon: "",
  menu_type: "tab",
  url: "",
  component: "",
  keepalive: 0,
  extend: "none",
  children: [],
  ...over,
});

const questions = rule({ id: 2, title: "Questions", name: "exam/question", path: "exam/question", component: "exam/question" });
const emptyDir = rule({ id: 3, type: "menu_dir", title: "Reports", name: "reports", path: "reports", menu_type: null, children: [rule({ id: 9, type: "button", name: "reports/x" })] });
const strange = rule({ id: 4, title: "Board", name: "board", path: "board", menu_type: "kanban" as MenuRule["menu_type"] });
const noPath = rule({ id: 5, title: "Broken", name: "broken", path: "" });
const noUrl = rule({ id: 6, title: "Docs", name: "docs", menu_type: "link", url: " " });

describe("SPEC §8 navigation messages", () => {
  it("tells each entry that goes nowhere from one that can be followed", () => {
    const at = (pathname: string, search = "") => ({ pathname, search });
    expect(menuProblem(questions, "admin", at("/admin/dashboard"))).toBeNull();
    expect(menuProblem(questions, "admin", at("/admin/exam/question"))).toBe(NAVIGATION_MESSAGES.alreadyThere);
    // Another page of the same list is somewhere else.
    expect(menuProblem(questions, "admin", at("/admin/exam/question", "?page=2"))).toBeNull();
    expect(menuProblem(emptyDir, "admin", at("/admin"))).toBe(NAVIGATION_MESSAGES.noChildMenu);
    expect(menuProblem({ ...emptyDir, children: [questions] }, "admin", at("/admin"))).toBeNull();
    expect(menuProblem(strange, "admin", at("/admin"))).toBe(NAVIGATION_MESSAGES.unknownType);
    expect(menuProblem(noPath, "admin", at("/admin"))).toBe(NAVIGATION_MESSAGES.invalidRoute);
    expect(menuProblem(noUrl, "user", at("/user"))).toBe(NAVIGATION_MESSAGES.invalidRoute);
    expect(menuProblem({ ...noUrl, url: "https://example.com/docs" }, "user", at("/user"))).toBeNull();
  });

  it("says why in the side menu and stays where it was", async () => {
    const shown = vi.spyOn(toast, "message").mockImplementation(() => undefined);
    function Where() {
      const { pathname } = useLocation();
      return <output data-testid="where">{pathname}</output>;
    }
    render(
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={["/admin/exam/question"]}>
          <Where />
          <SideMenu menus={[questions, emptyDir, strange]} collapsed={false} />
        </MemoryRouter>
      </I18nProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole("link", { name: "Questions" }));
    expect(shown).toHaveBeenLastCalledWith("Navigation failed: you are already on this page.");
    await user.click(screen.getByRole("button", { name: "Reports" }));
    expect(shown).toHaveBeenLastCalledWith("There is no menu under this one to go to.");
    await user.click(screen.getByRole("link", { name: "Board" }));
    expect(shown).toHaveBeenLastCalledWith("Navigation failed: the menu type is not recognised.");
    expect(shown).toHaveBeenCalledTimes(3);
    expect(screen.getByTestId("where")).toHaveTextContent("/admin/exam/question");
  });
});
