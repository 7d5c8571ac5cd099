import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Tabs } from "../../src/client/ui/Tabs.tsx";

type Value = "login" | "register" | "help";

function Harness({ initial = "login" as Value, changes = [] as Value[] }) {
  const [value, setValue] = useState<Value>(initial);
  return (
    <>
      <button type="button">before</button>
      <Tabs
        value={value}
        onValueChange={(next) => {
          changes.push(next);
          setValue(next);
        }}
        label="Log in or register"
        tabClassName="tab"
        items={[
          { value: "login", label: "Log in", content: <input aria-label="Username" /> },
          { value: "register", label: "Register", content: <input aria-label="Mobile" /> },
          { value: "help", label: "Help", content: <p>Ask us</p> },
        ]}
      />
    </>
  );
}

const tab = (name: string) => screen.getByRole("tab", { name });

describe("Tabs (the member login's)", () => {
  it("is a labelled tablist whose selected tab controls the one panel rendered, labelled by that tab", () => {
    render(<Harness />);
    expect(screen.getByRole("tablist", { name: "Log in or register" })).toBeInTheDocument();
    expect(tab("Log in")).toHaveAttribute("aria-selected", "true");
    expect(tab("Log in")).toHaveAttribute("data-state", "active");
    expect(tab("Register")).toHaveAttribute("aria-selected", "false");
    expect(tab("Register")).toHaveAttribute("data-state", "inactive");
    const panels = screen.getAllByRole("tabpanel");
    expect(panels).toHaveLength(1);
    expect(screen.getByRole("tabpanel", { name: "Log in" })).toContainElement(screen.getByLabelText("Username"));
    expect(tab("Log in")).toHaveAttribute("aria-controls", panels[0]!.id);
    expect(screen.queryByLabelText("Mobile")).toBeNull();
  });

  it("keeps only the selected tab in the Tab order, and Tab goes from it into the panel", async () => {
    render(<Harness initial="register" />);
    expect(tab("Register")).toHaveAttribute("tabindex", "0");
    expect(tab("Log in")).toHaveAttribute("tabindex", "-1");
    screen.getByRole("button", { name: "before" }).focus();
    await userEvent.tab();
    expect(tab("Register")).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByRole("tabpanel", { name: "Register" })).toHaveFocus();
  });

  it("moves the selection and the focus with the arrow keys (wrapping), Home and End", async () => {
    const changes: Value[] = [];
    render(<Harness changes={changes} />);
    tab("Log in").focus();
    await userEvent.keyboard("{ArrowRight}");
    expect(tab("Register")).toHaveFocus();
    expect(tab("Register")).toHaveAttribute("aria-selected", "true");
    expect(screen.getByLabelText("Mobile")).toBeInTheDocument();
    await userEvent.keyboard("{ArrowRight}{ArrowRight}");
    expect(tab("Log in")).toHaveFocus();
    await userEvent.keyboard("{ArrowLeft}");
    expect(tab("Help")).toHaveFocus();
    await userEvent.keyboard("{Home}");
    expect(tab("Log in")).toHaveFocus();
    await userEvent.keyboard("{End}");
    expect(tab("Help")).toHaveAttribute("aria-selected", "true");
    expect(changes).toEqual(["register", "help", "login", "help", "login", "help"]);
  });

  it("selects a tab by click, and a click on the selected one changes nothing", async () => {
    const changes: Value[] = [];
    render(<Harness changes={changes} />);
    await userEvent.click(tab("Log in"));
    expect(changes).toEqual([]);
    await userEvent.click(tab("Register"));
    expect(changes).toEqual(["register"]);
    expect(screen.getByRole("tabpanel", { name: "Register" })).toContainElement(screen.getByLabelText("Mobile"));
  });
});
