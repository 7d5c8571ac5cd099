import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { Select } from "../../src/client/ui/Select.tsx";
import { optionNames } from "../helpers/select.ts";

function Harness({ onChange, initial = "" }: { onChange: (v: string) => void; initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="fruit">Fruit</label>
      <Select
        control={{ id: "fruit" }}
        value={value}
        onChange={(v) => {
          setValue(v);
          onChange(v);
        }}
        emptyLabel="Please select"
        options={[
          { value: "a", label: "Apple" },
          { value: "b", label: "Banana" },
          { value: "c", label: "Cherry", depth: 1 },
        ]}
      />
    </>
  );
}

describe("Select (Radix)", () => {
  it("is labelled by its field, shows the empty choice, and lists the empty choice first", async () => {
    render(<Harness onChange={() => undefined} />);
    const trigger = screen.getByRole("combobox", { name: "Fruit" });
    expect(trigger).toHaveTextContent("Please select");
    expect(await optionNames(trigger)).toEqual(["Please select", "Apple", "Banana", "Cherry"]);
  });

  it("is chosen by keyboard alone: open with a key, type-ahead, Enter; Escape keeps the value", async () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const trigger = screen.getByRole("combobox", { name: "Fruit" });
    trigger.focus();
    await userEvent.keyboard("{ArrowDown}");
    await screen.findByRole("listbox");
    await userEvent.keyboard("b");
    await waitFor(() => expect(screen.getByRole("option", { name: "Banana" })).toHaveFocus());
    await userEvent.keyboard("{Enter}");
    expect(onChange).toHaveBeenLastCalledWith("b");
    await waitFor(() => expect(trigger).toHaveTextContent("Banana"));
    await waitFor(() => expect(trigger).toHaveFocus());
    await userEvent.keyboard("{ArrowDown}");
    await screen.findByRole("listbox");
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(trigger).toHaveTextContent("Banana");
  });

  it("gives back the empty value when the empty choice is taken", async () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} initial="c" />);
    const trigger = screen.getByRole("combobox", { name: "Fruit" });
    expect(trigger).toHaveTextContent("Cherry");
    trigger.focus();
    await userEvent.keyboard("{ArrowDown}");
    const empty = await screen.findByRole("option", { name: "Please select" });
    empty.focus();
    await userEvent.keyboard("{Enter}");
    expect(onChange).toHaveBeenLastCalledWith("");
    await waitFor(() => expect(trigger).toHaveTextContent("Please select"));
  });
});
