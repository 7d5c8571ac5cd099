import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Reports > Progress in the back office (English, admin/reports/ProgressReport.tsx): its
 * choices (group, the classroom / company / duty, the room or course, the status), the table
 * of rooms and courses assigned with their counts, the members of the one chosen and their total.
 */
export class ProgressReportScreen {
  readonly page: Page;
  /** The rooms and courses assigned to the chosen group, with their counts. */
  readonly targets: Locator;
  /** The chosen room's or course's members. */
  readonly members: Locator;
  /** The members' total under their table ("49 members"). */
  readonly summary: Locator;

  constructor(page: Page) {
    this.page = page;
    this.targets = page.getByRole("table", { name: /^Rooms and courses assigned to / });
    this.members = page.getByRole("table", { name: "Members", exact: true });
    this.summary = page.getByRole("navigation", { name: "Pages" }).getByText(/^\d+ members?$/);
  }

  async open(): Promise<void> {
    await this.page.goto("/admin/reports/progress");
    await expect(this.page.getByRole("heading", { name: "Progress report" })).toBeVisible();
  }

  /** Picks `option` in the choice labelled `label` ("Classroom", "Room or course", "Status"...). */
  async choose(label: string, option: string): Promise<void> {
    await this.page.getByRole("combobox", { name: label, exact: true }).click();
    await this.page.getByRole("option", { name: option, exact: true }).click();
    await expect(this.page.getByRole("combobox", { name: label, exact: true })).toContainText(option);
  }

  /** The counts of the room or course titled `title`, by column header ("Members", "Not started"...). */
  async figures(title: string): Promise<Record<string, string>> {
    const row = this.targets.getByRole("row").filter({ hasText: title });
    await expect(row).toHaveCount(1);
    const headers = await this.targets.getByRole("columnheader").allInnerTexts();
    const cells = await row.locator("th, td").allInnerTexts();
    return Object.fromEntries(headers.map((h, i) => [h.trim(), (cells[i] ?? "").trim()]));
  }

  /** The member row of `username` in the members table. */
  member(username: string): Locator {
    return this.members.getByRole("row").filter({ hasText: `(${username})` });
  }
}
