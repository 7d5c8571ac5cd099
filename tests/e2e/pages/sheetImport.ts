import { expect, type Locator, type Page } from "@playwright/test";

/**
 * A back-office import dialog drawn by SheetImport (admin/crud/SheetDialogs.tsx), opened from its
 * list's toolbar (English): the template buttons, the file, "Check the file" (the dry run: its
 * counts, every bad row, a preview of the first rows), the confirm button, and what was imported.
 * `countsTestId`: the screen's counts line (the member import's "member-import-counts").
 */
export class SheetImportDialog {
  readonly page: Page;
  readonly dialog: Locator;
  /** The dry run's counts. */
  readonly counts: Locator;
  /** The bad rows the dry run lists. */
  readonly errors: Locator;
  /** The button that imports a clean dry run (its words name the counts). */
  readonly confirmButton: Locator;
  /** What was imported, once confirmed. */
  readonly done: Locator;

  constructor(page: Page, dialog: Locator, countsTestId: string) {
    this.page = page;
    this.dialog = dialog;
    this.counts = dialog.getByTestId(countsTestId);
    this.errors = dialog.getByTestId("import-errors");
    this.confirmButton = dialog.getByRole("button", { name: /^Import: / });
    this.done = dialog.getByRole("status");
  }

  /** Opens the dialog from the list's toolbar button (`Import` by default). */
  async open(button = "Import"): Promise<void> {
    await this.page.getByRole("button", { name: button, exact: true }).click();
    await expect(this.dialog.getByRole("button", { name: "Check the file" })).toBeVisible();
  }

  /** Downloads the template in `format` and answers its bytes. */
  async downloadTemplate(format: "xlsx" | "csv"): Promise<Buffer> {
    const downloading = this.page.waitForEvent("download");
    await this.dialog.getByRole("button", { name: `.${format}`, exact: true }).click();
    const download = await downloading;
    return Buffer.concat(await (await download.createReadStream()).toArray());
  }

  /** Chooses the file to import. */
  async choose(name: string, data: Buffer): Promise<void> {
    const mimeType = name.endsWith(".csv") ? "text/csv" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    await this.dialog.getByLabel("File (.xlsx or UTF-8 .csv, the first row is the header)").setInputFiles({ name, mimeType, buffer: data });
  }

  /** Runs the dry run and waits for its counts. */
  async check(): Promise<void> {
    await this.dialog.getByRole("button", { name: "Check the file" }).click();
    await expect(this.counts).toBeVisible();
  }

  /** The dry run's preview row holding `text`. */
  previewRow(text: string): Locator {
    return this.dialog.getByRole("row").filter({ hasText: text });
  }

  /** Imports what the dry run showed. */
  async confirm(): Promise<void> {
    await this.confirmButton.click();
  }

  /** Closes the dialog once imported (its own "Close" button). */
  async close(): Promise<void> {
    await this.done.getByRole("button", { name: "Close", exact: true }).click();
    await expect(this.dialog).toBeHidden();
  }
}
