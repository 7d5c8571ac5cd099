import { expect, type Locator, type Page } from "@playwright/test";

/** The back office's languages the browser tests use (zh-cn is the app's default). */
export type AdminLang = "zh-cn" | "en";

/** The CRUD engine's own copy, once per language, so a spec names its data, not the chrome. */
const COPY = {
  "zh-cn": {
    add: "添加",
    save: "保存",
    cancel: "取消",
    quickSearch: "快速搜索",
    searchForm: "搜索表单",
    search: "搜索",
    edit: /^编辑第 \d+ 行$/,
    delete: /^删除第 \d+ 行$/,
    confirmDelete: "删除",
    empty: "暂无数据",
    menu: "后台菜单",
  },
  en: {
    add: "Add",
    save: "Save",
    cancel: "Cancel",
    quickSearch: "Quick search",
    searchForm: "Search form",
    search: "Search",
    edit: /^Edit row \d+$/,
    delete: /^Delete row \d+$/,
    confirmDelete: "Delete",
    empty: "No data",
    menu: "Back office menu",
  },
} as const;

/**
 * A back-office screen drawn by the CRUD engine: its side menu, its list (quick search, search
 * form, rows and their buttons), its add/edit dialog and its delete confirmation.
 */
export class AdminCrud {
  readonly page: Page;
  readonly copy: (typeof COPY)[AdminLang];
  /** The add/edit form (and any other dialog the screen opens: importer, composer, results). */
  readonly dialog: Locator;
  /** The side menu. */
  readonly menu: Locator;
  readonly addButton: Locator;
  readonly quickSearch: Locator;
  readonly searchForm: Locator;
  /** The list's "no data" line. */
  readonly empty: Locator;

  constructor(page: Page, lang: AdminLang = "zh-cn") {
    this.page = page;
    this.copy = COPY[lang];
    this.dialog = page.getByRole("dialog");
    this.menu = page.getByRole("navigation", { name: this.copy.menu });
    this.addButton = page.getByRole("button", { name: this.copy.add, exact: true });
    this.quickSearch = page.getByRole("search", { name: this.copy.quickSearch }).getByRole("searchbox");
    this.searchForm = page.getByRole("search", { name: this.copy.searchForm });
    this.empty = page.getByText(this.copy.empty);
  }

  /** The screen's heading (its menu title). */
  heading(name: string): Locator {
    return this.page.getByRole("heading", { name, exact: true });
  }

  /** A link in the side menu. */
  menuLink(name: string, options: { exact?: boolean } = {}): Locator {
    return this.menu.getByRole("link", { name, ...options });
  }

  /** Opens the screen at `path`, and waits for its heading when given. */
  async open(path: string, heading?: string): Promise<void> {
    await this.page.goto(path);
    if (heading) await expect(this.heading(heading)).toBeVisible();
  }

  /** Opens the empty add form. */
  async openAdd(): Promise<void> {
    await this.addButton.click();
  }

  /** Presses the form's save button (the form stays open when a field is refused). */
  async save(): Promise<void> {
    await this.dialog.getByRole("button", { name: this.copy.save }).click();
  }

  /** Saves the form and waits for it to close. */
  async saveAndClose(): Promise<void> {
    await this.save();
    await expect(this.dialog).toBeHidden();
  }

  /** Closes the form without saving. */
  async cancel(): Promise<void> {
    await this.dialog.getByRole("button", { name: this.copy.cancel }).click();
  }

  /** Types into the quick search and submits it (an empty text clears it). */
  async quickFind(text: string): Promise<void> {
    await this.quickSearch.fill(text);
    await this.quickSearch.press("Enter");
  }

  /** Opens the search form (the button beside the quick search). */
  async openSearchForm(): Promise<void> {
    await this.page.getByRole("button", { name: this.copy.searchForm }).click();
  }

  /** Runs the search form with what was filled in it. */
  async runSearchForm(): Promise<void> {
    await this.searchForm.getByRole("button", { name: this.copy.search, exact: true }).click();
  }

  /** Every row of the list, header included. */
  rows(): Locator {
    return this.page.getByRole("row");
  }

  /** The list's rows holding `text`. */
  row(text: string): Locator {
    return this.rows().filter({ hasText: text });
  }

  /** Opens the edit form of `row`. */
  async edit(row: Locator): Promise<void> {
    await row.getByRole("button", { name: this.copy.edit }).click();
  }

  /** Deletes `row`, confirming in the alert dialog; resolves once the server answered. */
  async delete(row: Locator): Promise<void> {
    await row.getByRole("button", { name: this.copy.delete }).click();
    await this.confirm(this.copy.confirmDelete);
  }

  /**
   * Presses the alert dialog's `button` and waits for the dialog to close: it stays open (and the
   * page behind it hidden from the accessibility tree, so every row seems gone) until the server
   * answered. A navigation before that could cancel the request it sends.
   */
  async confirm(button: string): Promise<void> {
    const dialog = this.page.getByRole("alertdialog");
    await dialog.getByRole("button", { name: button }).click();
    await expect(dialog).toBeHidden();
  }
}
