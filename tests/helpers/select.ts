import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect } from "vitest";

/** Opens a Radix select by its trigger and returns the listbox it shows. */
export async function openSelect(trigger: HTMLElement): Promise<HTMLElement> {
  await userEvent.click(trigger);
  return screen.findByRole("listbox");
}

/** The option names a Radix select offers (opened, read, closed again). */
export async function optionNames(trigger: HTMLElement): Promise<string[]> {
  const list = await openSelect(trigger);
  const names = within(list).getAllByRole("option").map((o) => o.textContent ?? "");
  await userEvent.keyboard("{Escape}");
  await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
  return names;
}

/**
 * Chooses an option of a Radix select by its name: open it, move to the option, Enter (jsdom's
 * pointer events come too close together for Radix to take a click as a choice).
 */
export async function chooseOption(trigger: HTMLElement, name: string | RegExp): Promise<void> {
  const list = await openSelect(trigger);
  within(list).getByRole("option", { name }).focus();
  await userEvent.keyboard("{Enter}");
  await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
}
